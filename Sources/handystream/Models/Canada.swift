import HandyStream

// canada.json: GeoJSON, almost only floating-point numbers.

struct FeatureCollection: HandyJSON, Codable {
    var type = ""
    var features: [Feature] = []
}

struct Feature: HandyJSON, Codable {
    var type = ""
    var properties: [String: String] = [:]
    var geometry = Geometry()
}

struct Geometry: HandyJSON, Codable {
    var type = ""
    var coordinates: [[[Double]]] = []
}

struct FeatureCollectionPartial: HandyJSON, Codable {
    var type = ""
}
