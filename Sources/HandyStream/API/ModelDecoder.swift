enum HandyStreamPlaceholder {}
