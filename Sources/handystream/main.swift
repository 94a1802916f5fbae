print("handystream")
