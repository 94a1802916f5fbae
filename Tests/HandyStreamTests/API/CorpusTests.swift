import Foundation
import HandyStream
import Testing

struct Tweet: HandyJSON {
    var id: Int64 = 0
    var id_str = ""
    var text = ""
    var retweet_count = 0
    var in_reply_to_status_id: Int64?
    var user = TwitterUser()
    var entities = Entities()
    var retweeted_status: RetweetedStatus?
}

struct RetweetedStatus: HandyJSON {
    var id: UInt64 = 0
    var user = TwitterUser()
}

struct TwitterUser: HandyJSON {
    var id: UInt64 = 0
    var screen_name = ""
    var followers_count = 0
    var verified = false
    var utc_offset: Int?
}

struct Entities: HandyJSON {
    var hashtags: [Hashtag] = []
    var user_mentions: [Mention] = []
}

struct Hashtag: HandyJSON {
    var text = ""
    var indices: [Int] = []
}

struct Mention: HandyJSON {
    var screen_name = ""
    var id: Int64 = 0
}

struct SearchResult: HandyJSON {
    var statuses: [Tweet] = []
    var search_metadata: [String: Any] = [:]
}

@Suite("Corpus documents")
struct CorpusTests {
    @Test("twitter.json into models: the same values JSONSerialization sees")
    func twitter() throws {
        let data = try Corpus.data("twitter.json")
        let result = try ModelDecoder().decode(SearchResult.self, from: data)
        let reference = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let statuses = try #require(reference["statuses"] as? [[String: Any]])
        #expect(result.statuses.count == statuses.count)
        #expect(result.statuses.count == 100)
        for (tweet, expected) in zip(result.statuses, statuses) {
            #expect(tweet.id_str == expected["id_str"] as? String)
            #expect(String(tweet.id) == tweet.id_str, "64-bit ids are exact")
            #expect(tweet.text == expected["text"] as? String)
            let user = try #require(expected["user"] as? [String: Any])
            #expect(tweet.user.screen_name == user["screen_name"] as? String)
            #expect(tweet.user.followers_count == (user["followers_count"] as? NSNumber)?.intValue)
            let hashtags = (expected["entities"] as? [String: Any])?["hashtags"] as? [[String: Any]] ?? []
            #expect(tweet.entities.hashtags.map(\.text) == hashtags.map { $0["text"] as? String ?? "?" })
            #expect((tweet.retweeted_status != nil) == (expected["retweeted_status"] != nil))
        }
        #expect(result.search_metadata["count"] as? Int == 100)
        #expect(result.search_metadata["max_id_str"] as? String == "505874924095815681")
    }

    @Test("A designated path inside twitter.json")
    func twitterPath() throws {
        let data = try Corpus.data("twitter.json")
        let user = try ModelDecoder().decode(TwitterUser.self, from: data, at: "statuses[99].user")
        #expect(user.followers_count == 560)
        let count = try ModelDecoder().decode(Int.self, from: data, at: "search_metadata.count")
        #expect(count == 100)
    }

    @Test(
        "Every corpus document decodes into Any exactly as JSONSerialization reads it",
        arguments: [
            "github_events.json", "citm_catalog.json", "canada.json", "twitterescaped.json", "numbers.json",
            "apache_builds.json", "random.json", "update-center.json", "instruments.json", "mesh.json",
            "twitter_timeline.json", "gsoc-2018.json", "marine_ik.json",
        ])
    func anyMatchesFoundation(name: String) throws {
        let data = try Corpus.data(name)
        let ours = try ModelDecoder().decode(Any.self, from: data)
        let foundation = try JSONSerialization.jsonObject(with: data)
        var differences: [String] = []
        compare(ours, foundation, path: "$", differences: &differences)
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }
}

/// Walks two Foundation-style values side by side. Numbers compare by value: corelibs Foundation returns some
/// doubles as `NSDecimalNumber`, whose exact decimal text Swift's own correctly rounded parser reads back.
func compare(_ ours: Any, _ theirs: Any, path: String, differences: inout [String]) {
    guard differences.count < 5 else { return }
    switch (ours, theirs) {
    case let (a as [String: Any], b as [String: Any]):
        if a.keys.sorted() != b.keys.sorted() { differences.append("\(path): keys differ") }
        for (key, value) in a { compare(value, b[key] as Any, path: path + "." + key, differences: &differences) }
    case let (a as [Any], b as [Any]):
        if a.count != b.count { differences.append("\(path): \(a.count) vs \(b.count) elements") }
        for (index, pair) in zip(a, b).enumerated() {
            compare(pair.0, pair.1, path: path + "[\(index)]", differences: &differences)
        }
    case let (a as String, b as String):
        if a != b { differences.append("\(path): \(a) vs \(b)") }
    case let (a as Bool, b as Bool) where type(of: ours) == Bool.self:
        if a != b { differences.append("\(path): \(a) vs \(b)") }
    case (is NSNull, is NSNull):
        break
    case let (a as Int, b as NSNumber) where type(of: ours) == Int.self:
        if "\(a)" != b.description { differences.append("\(path): \(a) vs \(b)") }
    case let (a as Double, b as NSNumber):
        if a != Double(b.description) { differences.append("\(path): \(a) vs \(b)") }
    default:
        differences.append("\(path): \(type(of: ours)) \(ours) vs \(type(of: theirs)) \(theirs)")
    }
}
