"""The customer's pages: sign-in page, profile, orders, favourites, password reset."""
