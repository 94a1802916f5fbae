import HandyJSON

// twitter.json (a search API response) as HandyStream models, decoded by their field tables. Their plain Codable
// twins (PlainCodable.swift) have the same properties, so that the model path, the Codable path and Foundation's
// JSONDecoder fill exactly the same fields. (A type that is both would be read by its Codable declarations by
// ModelDecoder, so the bench keeps the two apart.)

struct TwitterSearch: HandyJSON {
    var statuses: [Status] = []
    var search_metadata = SearchMetadata()
}

struct SearchMetadata: HandyJSON {
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

final class Status: HandyJSON {
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
    required init() {}
}

struct StatusMetadata: HandyJSON {
    var result_type = ""
    var iso_language_code = ""
}

struct TwitterUser: HandyJSON {
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

struct UserEntities: HandyJSON {
    var url: URLList?
    var description = URLList()
}

struct URLList: HandyJSON {
    var urls: [URLEntity] = []
}

struct Entities: HandyJSON {
    var hashtags: [Hashtag] = []
    var symbols: [Hashtag] = []
    var urls: [URLEntity] = []
    var user_mentions: [Mention] = []
    var media: [Media]?
}

struct Hashtag: HandyJSON {
    var text = ""
    var indices: [Int] = []
}

struct URLEntity: HandyJSON {
    var url = ""
    var expanded_url = ""
    var display_url = ""
    var indices: [Int] = []
}

struct Mention: HandyJSON {
    var screen_name = ""
    var name = ""
    var id: UInt64 = 0
    var id_str = ""
    var indices: [Int] = []
}

struct Media: HandyJSON {
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

struct MediaSize: HandyJSON {
    var w = 0
    var h = 0
    var resize = ""
}

/// A few fields only: what a client that shows a timeline needs.
struct TwitterSearchPartial: HandyJSON {
    var statuses: [StatusPartial] = []
}

struct StatusPartial: HandyJSON {
    var id: UInt64 = 0
    var text = ""
    var user = UserPartial()
}

struct UserPartial: HandyJSON {
    var screen_name = ""
}

/// The partial model again, with its own property names mapped to the document's keys: the cost of mappings.
struct TwitterSearchMapped: HandyJSON {
    var tweets: [StatusMapped] = []
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.tweets <-- "statuses"
    }
}

struct StatusMapped: HandyJSON {
    var identifier: UInt64 = 0
    var body = ""
    var author = UserMapped()
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< [self.identifier <-- "id", self.body <-- "text", self.author <-- "user"]
    }
}

struct UserMapped: HandyJSON {
    var handle = ""
    mutating func mapping(mapper: HelpingMapper) {
        mapper <<< self.handle <-- ["screen_name", "name"]
    }
}
