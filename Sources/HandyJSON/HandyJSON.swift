// `import HandyJSON` keeps working for code written against HandyJSON: this module only re-exports HandyStream.
@_exported import HandyStream
