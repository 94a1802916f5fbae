// `import HandyJSON` keeps working for code written against HandyJSON: this module holds HandyJSON's own calls,
// operators, transforms and configuration, and re-exports HandyStream.
@_exported import HandyStream
