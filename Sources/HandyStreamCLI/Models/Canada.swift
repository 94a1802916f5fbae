import HandyStream

// canada.json: GeoJSON, almost only floating-point numbers.

struct FeatureCollection: HandyJSON {
    var type = ""
    var features: [Feature] = []
}

struct Feature: HandyJSON {
    var type = ""
    var properties: [String: String] = [:]
    var geometry = Geometry()
}

struct Geometry: HandyJSON {
    var type = ""
    var coordinates: [[[Double]]] = []
}

/// The same document with each point an `InlineArray<2, Double>`: no allocation per `[x, y]`.
struct InlineFeatureCollection: HandyJSON {
    var type = ""
    var features: [InlineFeature] = []
}

struct InlineFeature: HandyJSON {
    var type = ""
    var properties: [String: String] = [:]
    var geometry = InlineGeometry()
}

struct InlineGeometry: HandyJSON {
    var type = ""
    var coordinates: [[InlineArray<2, Double>]] = []
}

struct FeatureCollectionPartial: HandyJSON {
    var type = ""
}

// The elements `handystream generate` writes.

struct GeneratedItem: HandyJSON {
    var id = 0
    var name = ""
    var price = 0.0
    var active = false
    var tags: [String] = []
    var owner = GeneratedOwner()
    var description = ""
    var ratings: [Double] = []
}

struct GeneratedOwner: HandyJSON {
    var id = 0
    var name = ""
    var email = ""
}
