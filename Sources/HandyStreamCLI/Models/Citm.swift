import HandyStream

// citm_catalog.json: an event catalogue, large objects keyed by ids and arrays of integers.

struct Catalog: HandyJSON {
    var areaNames: [String: String] = [:]
    var audienceSubCategoryNames: [String: String] = [:]
    var blockNames: [String: String] = [:]
    var events: [String: Event] = [:]
    var performances: [Performance] = []
    var seatCategoryNames: [String: String] = [:]
    var subTopicNames: [String: String] = [:]
    var subjectNames: [String: String] = [:]
    var topicNames: [String: String] = [:]
    var topicSubTopics: [String: [Int]] = [:]
    var venueNames: [String: String] = [:]
}

struct Event: HandyJSON {
    var description: String?
    var id = 0
    var logo: String?
    var name = ""
    var subTopicIds: [Int] = []
    var subjectCode: String?
    var subtitle: String?
    var topicIds: [Int] = []
}

struct Performance: HandyJSON {
    var eventId = 0
    var id = 0
    var logo: String?
    var name: String?
    var prices: [Price] = []
    var seatCategories: [SeatCategory] = []
    var seatMapImage: String?
    var start = 0
    var venueCode = ""
}

struct Price: HandyJSON {
    var amount = 0
    var audienceSubCategoryId = 0
    var seatCategoryId = 0
}

struct SeatCategory: HandyJSON {
    var areas: [Area] = []
    var seatCategoryId = 0
}

struct Area: HandyJSON {
    var areaId = 0
    var blockIds: [Int] = []
}

struct CatalogPartial: HandyJSON {
    var venueNames: [String: String] = [:]
}
