import HandyStream

struct Cat: HandyJSON {
    var name = ""
    var age = 0
}

let cat = try ModelDecoder().decode(Cat.self, from: #"{"data": {"cat": {"name": "Tom", "age": "3"}}}"#, at: "data.cat")
print("\(cat.name) \(cat.age)")
