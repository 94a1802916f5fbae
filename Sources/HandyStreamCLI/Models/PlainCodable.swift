import Foundation

// The corpus models again as plain Codable types (no HandyJSON conformance), for the Codable rows of the bench: the
// same properties as Twitter.swift, Citm.swift and Canada.swift, so that HandyStream's Codable path, its model path
// and Foundation's JSONDecoder fill the same fields. Kept in the namespace `PlainCodable`.

enum PlainCodable {
    struct TwitterSearch: Codable {
        var statuses: [Status] = []
        var search_metadata = SearchMetadata()
    }

    struct SearchMetadata: Codable {
        var completed_in = 0.0
        var max_id: UInt64 = 0
        var max_id_str = ""
        var next_results = ""
        var query = ""
        var refresh_url = ""
        var count = 0
        var since_id: UInt64 = 0
        var since_id_str = ""
    }

    final class Status: Codable {
        var metadata = StatusMetadata()
        var created_at = ""
        var id: UInt64 = 0
        var id_str = ""
        var text = ""
        var source = ""
        var truncated = false
        var in_reply_to_status_id: UInt64?
        var in_reply_to_status_id_str: String?
        var in_reply_to_user_id: UInt64?
        var in_reply_to_user_id_str: String?
        var in_reply_to_screen_name: String?
        var user = TwitterUser()
        var retweeted_status: Status?
        var retweet_count = 0
        var favorite_count = 0
        var entities = Entities()
        var favorited = false
        var retweeted = false
        var possibly_sensitive: Bool?
        var lang = ""
    }

    struct StatusMetadata: Codable {
        var result_type = ""
        var iso_language_code = ""
    }

    struct TwitterUser: Codable {
        var id: UInt64 = 0
        var id_str = ""
        var name = ""
        var screen_name = ""
        var location = ""
        var description = ""
        var url: String?
        var entities = UserEntities()
        var protected = false
        var followers_count = 0
        var friends_count = 0
        var listed_count = 0
        var created_at = ""
        var favourites_count = 0
        var utc_offset: Int?
        var time_zone: String?
        var geo_enabled = false
        var verified = false
        var statuses_count = 0
        var lang = ""
        var contributors_enabled = false
        var is_translator = false
        var is_translation_enabled = false
        var profile_background_color = ""
        var profile_background_image_url = ""
        var profile_background_image_url_https = ""
        var profile_background_tile = false
        var profile_image_url = ""
        var profile_image_url_https = ""
        var profile_banner_url: String?
        var profile_link_color = ""
        var profile_sidebar_border_color = ""
        var profile_sidebar_fill_color = ""
        var profile_text_color = ""
        var profile_use_background_image = false
        var default_profile = false
        var default_profile_image = false
        var following = false
        var follow_request_sent = false
        var notifications = false
    }

    struct UserEntities: Codable {
        var url: URLList?
        var description = URLList()
    }

    struct URLList: Codable {
        var urls: [URLEntity] = []
    }

    struct Entities: Codable {
        var hashtags: [Hashtag] = []
        var symbols: [Hashtag] = []
        var urls: [URLEntity] = []
        var user_mentions: [Mention] = []
        var media: [Media]?
    }

    struct Hashtag: Codable {
        var text = ""
        var indices: [Int] = []
    }

    struct URLEntity: Codable {
        var url = ""
        var expanded_url = ""
        var display_url = ""
        var indices: [Int] = []
    }

    struct Mention: Codable {
        var screen_name = ""
        var name = ""
        var id: UInt64 = 0
        var id_str = ""
        var indices: [Int] = []
    }

    struct Media: Codable {
        var id: UInt64 = 0
        var id_str = ""
        var indices: [Int] = []
        var media_url = ""
        var media_url_https = ""
        var url = ""
        var display_url = ""
        var expanded_url = ""
        var type = ""
        var sizes: [String: MediaSize] = [:]
        var source_status_id: UInt64?
        var source_status_id_str: String?
    }

    struct MediaSize: Codable {
        var w = 0
        var h = 0
        var resize = ""
    }

    struct Catalog: Codable {
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

    struct Event: Codable {
        var description: String?
        var id = 0
        var logo: String?
        var name = ""
        var subTopicIds: [Int] = []
        var subjectCode: String?
        var subtitle: String?
        var topicIds: [Int] = []
    }

    struct Performance: Codable {
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

    struct Price: Codable {
        var amount = 0
        var audienceSubCategoryId = 0
        var seatCategoryId = 0
    }

    struct SeatCategory: Codable {
        var areas: [Area] = []
        var seatCategoryId = 0
    }

    struct Area: Codable {
        var areaId = 0
        var blockIds: [Int] = []
    }

    struct FeatureCollection: Codable {
        var type = ""
        var features: [Feature] = []
    }

    struct Feature: Codable {
        var type = ""
        var properties: [String: String] = [:]
        var geometry = Geometry()
    }

    struct Geometry: Codable {
        var type = ""
        var coordinates: [[[Double]]] = []
    }

    // The elements `handystream generate` writes.

    struct GeneratedItem: Codable {
        var id = 0
        var name = ""
        var price = 0.0
        var active = false
        var tags: [String] = []
        var owner = GeneratedOwner()
        var description = ""
        var ratings: [Double] = []
    }

    struct GeneratedOwner: Codable {
        var id = 0
        var name = ""
        var email = ""
    }

    // The partial models (Twitter.swift, Citm.swift, Canada.swift).

    struct TwitterSearchPartial: Codable {
        var statuses: [StatusPartial] = []
    }

    struct StatusPartial: Codable {
        var id: UInt64 = 0
        var text = ""
        var user = UserPartial()
    }

    struct UserPartial: Codable {
        var screen_name = ""
    }

    struct CatalogPartial: Codable {
        var venueNames: [String: String] = [:]
    }

    struct FeatureCollectionPartial: Codable {
        var type = ""
    }
}
