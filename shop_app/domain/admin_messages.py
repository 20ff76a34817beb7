"""Every user-visible text of the back office rules, in one place (docs/architecture.md#messages).

Copied verbatim from the back office specification (``docs/spec/admin*.md``, content.md and
square.md: their rules and messages). Templates use :meth:`str.format` placeholders named in the comments.
Messages the storefront shares (such as "Please fill in all fields") live in
:mod:`shop_app.domain.messages`.
"""

from __future__ import annotations

from enum import StrEnum


class AdminLabel(StrEnum):
    """Badges, counts and empty states of the admin lists (docs/spec/admin-products.md#manage, #grouped)."""

    STATUS_NEW = "New"
    STATUS_SALE = "Sale"
    STATUS_ACTIVE = "Active"
    STATUS_ARCHIVED = "Archived"
    SINGLE_PRODUCT = "Single product"
    ONE_SCENT_VARIANT = "1 scent variant"
    N_SCENT_VARIANTS = "{n} scent variants"  # seed: 'N scent variants'
    NO_PRODUCTS = "No products found"
    CREATE_FIRST_PRODUCT = "Create your first product to get started"
    ADJUST_FILTERS = "Try adjusting your search or filter criteria"
    NO_USERS = "No users found matching your criteria."
    ACCESS_DENIED = "Access Denied - You don't have permission to access the admin dashboard."
    UNKNOWN_FIRST_NAME = "Unknown"  # profile that cannot be fetched
    UNKNOWN_LAST_NAME = "User"
    STATUS_GUEST = "Guest"  # ours: View Users, someone who ordered without an account


class ProductFormMessage(StrEnum):
    """Product form, wizard upload and variant validation (docs/spec/admin-products.md#local-form,
    #wizard-images, #convert-to-variant). Placeholder: file."""

    NAME_REQUIRED = "Product name is required"
    ID_REQUIRED = "Product ID is required"
    DESCRIPTION_REQUIRED = "Description is required"
    PRICE_NOT_POSITIVE = "Price must be greater than 0"
    SALE_NOT_BELOW_PRICE = "Sale price must be less than regular price"
    IMAGE_REQUIRED = "At least one product image is required"
    SCENT_NOTE_REQUIRED = "At least one scent note is required"
    NOT_AN_IMAGE = "{file} is not a valid image file"
    IMAGE_TOO_LARGE = "{file} is too large. Maximum size is 5MB"
    SELECT_GROUP_AND_SCENT = "Please select or create a vessel group and provide a scent name"
    NEW_VESSEL_NAME_REQUIRED = "Please provide a name for the new vessel"
    GROUP_NOT_FOUND = "Selected vessel group not found"
    REQUIRED_FIELDS = "Please fill in all required fields"  # Add Scent


class BuilderMessage(StrEnum):
    """Custom candle builder validation (docs/spec/content.md#custom-creator-messages)."""

    TOO_MANY_SCENTS = "You can select up to 3 scents for your custom blend"
    SELECT_VESSEL = "Please select a vessel size"
    SELECT_SCENT = "Please select at least one scent"


class ProductAdminMessage(StrEnum):
    """Product management toasts (docs/spec/admin-products.md, each section). Placeholders: message, name, n,
    scent, group."""

    LOAD_FAILED = "Failed to load products"
    CREATED_EVERYWHERE = "Product created successfully in both local database and Square!"
    CREATED_LOCALLY = "Product created successfully! (Square sync will be handled separately)"
    CREATE_FAILED = "Failed to create product: {message}"  # message or "Unknown error"
    DELETED_EVERYWHERE = "Product deleted successfully from both local database and Square"
    DELETED_LOCALLY = "Product deleted successfully"  # ours: the product was never in Square
    SQUARE_DELETE_FAILED = "Failed to delete from Square, but continuing with local deletion"
    CONFIRM_ARCHIVE_INSTEAD = (
        'Cannot delete "{name}" because it has been ordered by customers. Would you like to '
        "archive it instead? This will hide it from the store while preserving order history."
    )
    ARCHIVED_INSTEAD = 'Product "{name}" has been archived successfully'
    DELETE_FAILED = "Failed to delete product: {message}"
    VARIANT_ORDERED = (
        "Cannot delete this product - it has been ordered by customers. You can deactivate it instead."
    )
    VARIANT_DELETED = "Product variant deleted successfully"
    VARIANT_DELETE_FAILED = "Failed to delete product variant"
    ARCHIVED = "Product archived"
    ACTIVATED = "Product activated"
    STATUS_FAILED = "Failed to update product status"
    DEACTIVATED = "Product deactivated successfully"
    DEACTIVATE_FAILED = "Failed to deactivate product"
    UPDATED = "Product updated successfully"
    UPDATE_FAILED = "Failed to update product"
    # ours (issue 17): two editors of one product; the later save would undo the earlier one
    CHANGED_ELSEWHERE = (
        "This product was changed elsewhere since you opened it (another tab, another admin or a "
        "sync), so your edit was not saved. Open it again to see the current values."
    )
    SYNC_STARTING = "Starting sync from Square..."
    SYNC_DONE = "Successfully synced {n} products from Square!"
    SYNC_FAILED = "Sync failed: {message}"
    # ours (issue 17): a product the shop changed since Square last had it keeps the shop's values
    SYNC_KEPT = (
        "Kept this shop's name, description and price for {n} changed here since Square last had "
        "them: {names}."
    )
    CONVERTED_TO_VARIANT = 'Product converted to variant "{scent}" in {group}'
    CONVERT_TO_VARIANT_FAILED = "Failed to convert product to variant"
    VARIANT_ADDED = 'New variant "{scent}" added successfully'
    VARIANT_ADD_FAILED = "Failed to add new variant"
    CONVERTED_TO_STANDALONE = 'Product converted to standalone: "{name}"'
    CONVERT_TO_STANDALONE_FAILED = "Failed to convert product to standalone"


class CategoryMessage(StrEnum):
    """Category management toasts (docs/spec/admin-categories.md#messages)."""

    LOAD_FAILED = "Failed to load categories. Check console for database setup instructions."
    CREATED = "Category created successfully"
    UPDATED = "Category updated successfully"
    DELETED = "Category deleted successfully"
    CREATE_FAILED = "Failed to create category"
    UPDATE_FAILED = "Failed to update category"
    DELETE_FAILED = "Failed to delete category"
    # Ours (the seed names the rules, not their wording). Placeholders: slug, name, subcategories,
    # products (a count with its noun: "1 product").
    NAME_REQUIRED = "Category name is required"
    NAME_TOO_LONG = "Category name must be at most 255 characters"
    NAME_WITHOUT_SLUG = "Category name must contain at least one letter or digit"
    SLUG_TAKEN = 'A category with the slug "{slug}" already exists'
    SORT_ORDER_INVALID = "Sort order must be a whole number"
    NOT_FOUND = "This category no longer exists"
    PARENT_NOT_FOUND = "The parent category no longer exists"
    OWN_PARENT = "A category cannot be its own parent"
    PARENT_NOT_MAIN = "A subcategory can only be placed under a main category"
    HAS_SUBCATEGORIES = (
        '"{name}" has subcategories, so it cannot become a subcategory: categories have only two '
        "levels. Move or delete its subcategories first."
    )
    DELETE_HAS_SUBCATEGORIES = (
        '"{name}" still has {subcategories}. Move them under another category or delete them first.'
    )
    DELETE_HAS_PRODUCTS = (
        '"{name}" still has {products}. Move them to another category first, or deactivate the '
        "category to hide it from the shop."
    )


class AdminUserMessage(StrEnum):
    """Admin and user management toasts (docs/spec/admin-people.md#admin-rules, #admin-messages)."""

    ALL_FIELDS = "Please fill in all fields"
    LOAD_ADMINS_FAILED = "Failed to load admin users. Please check database setup."
    LOAD_USERS_FAILED = "Failed to load users"
    USER_NOT_FOUND = "User not found. The user must have an account first."
    ALREADY_ADMIN = "User is already an admin"
    ADMIN_ADDED = "Admin user added successfully"
    ADD_FAILED = "Failed to add admin user. Please ensure the user has an account."
    ADMIN_REMOVED = "Admin user removed successfully"
    REMOVE_FAILED = "Failed to remove admin user"
    ACCESS_DENIED = "Access denied"
    # Ours: rules the seed states without wording (docs/spec/admin-people.md#admin-rules) and what another
    # admin may have done.
    ROLE_NOT_OFFERED = "The only role that can be granted is admin"
    ADMIN_GONE = "This admin has already been removed"
    CANNOT_REMOVE_SELF = "You cannot remove your own admin access"
    LAST_ADMIN = "The shop needs at least one active admin, so the last one cannot be removed"
    # Ours: View Users' details of a guest asked by an e-mail no guest has ordered with (or that has
    # since opened an account).
    GUEST_NOT_FOUND = "No guest has ordered with this e-mail address"


class WebsiteImageMessage(StrEnum):
    """Website images toasts (docs/spec/admin-site.md#website-images-messages). Placeholders: type, message,
    file."""

    STATIC_FALLBACK = "Using current static images. Database table not found."
    CANNOT_SAVE_NO_TABLE = (
        "Cannot save changes - website_images table not found. Please create the database table first."
    )
    TABLE_MISSING = "Database table not found. Please set up the website_images table first."
    STORAGE_UPLOAD_FAILED = "Storage upload failed, using local preview..."
    DELETE_FAILED = "Failed to delete {type}: {message}"
    SAVE_TYPE_FAILED = "Failed to save {type} image"
    SAVE_FAILED = "Failed to save changes"
    UPLOAD_BEFORE_SAVING = "Please upload {type} image to storage before saving"
    UPLOAD_FILE_FAILED = "Failed to upload {file}"
    UPLOAD_IMAGES_FAILED = "Failed to upload images"
    UPLOAD_IMAGE_FAILED = "Failed to upload image"
    UPLOADED = "Image uploaded successfully! Remember to save your changes."
    REMOVED = "Image removed. Save changes to update the website."
    ALL_SAVED = "All changes saved successfully! Website images updated."


class BackendMessage(StrEnum):
    """Catalog backend errors (docs/spec/square.md#messages). Placeholder: error."""

    API_ERROR = "Backend API Error: {error}"
    UNKNOWN_ERROR = "Unknown error"
    SYNC_FAILED = "Sync failed"
    INVENTORY_SYNC_FAILED = "Inventory sync failed"
    FETCH_PRODUCTS_FAILED = "Failed to fetch products"
    INVALID_JSON = "Invalid JSON response from server"
    EMPTY_RESPONSE = "Empty response from server"
    CATALOG_CREATE_FAILED = "Failed to create product in Square Catalog"
    IMAGE_UPLOAD_DISABLED = "Square image upload temporarily disabled - image saved locally only"


class StoreSettingsMessage(StrEnum):
    """Store settings form (docs/spec/admin-site.md#store-settings has the fields but no texts: all ours).
    Placeholders: n."""

    SAVED = "Settings saved successfully!"
    SAVE_FAILED = "Failed to save settings"
    FIX_FIELDS = "Please correct the highlighted fields"
    COMPANY_NAME_REQUIRED = "Company name is required"
    TOO_LONG = "Must be at most {n} characters"
    RATE_INVALID = "Enter a rate from 0 to 100 with at most 4 decimals, e.g. 7 or 9.975"
    GST_HST_NUMBER_INVALID = "Enter the number in digits, letters, spaces and hyphens, e.g. 123456789 RT0001"
    SOCIAL_INVALID = "Enter a link starting with https:// or a handle such as @yourshop"
    CURRENCY_REQUIRED = "Currency symbol is required"
    SHIPPING_COUNTRIES_REQUIRED = "Switch on at least one zone that has a country"
    # issue 19: shipping zones
    ZONE_NAME_REQUIRED = "Name this zone, or choose another zone for its countries"
    ZONE_NAME_TAKEN = "Another zone already has this name"
    SHIPPING_AMOUNT_INVALID = "Enter an amount from $0.00 to $1,000.00, e.g. 15 or 12.50"


class ProductDraftText(StrEnum):
    """The product editors' texts: the wizard, the Edit Product dialog and the full-page form
    (docs/spec/admin-products.md#wizard, #one-editor; the rest ours).

    Placeholders: field, limit, max, sku.
    """

    IMAGE_HINT = "Recommended: 1200x1200px, JPG or PNG, max 5MB per image"  # seed: wizard step 2
    PUBLISHING = "Publishing..."  # seed: Publish while publishing
    # ours: input the seed's forms leave to the browser's number inputs
    STOCK_INVALID = "Stock quantity must be a whole number from 0 to {max}"
    WEIGHT_INVALID = "Weight must be a number from 0 to {max}, in steps of 0.1"
    AMOUNT_TOO_LARGE = "The amount can be at most {max}"
    TOO_LONG = "{field} can be at most {limit} characters"
    # ours: the editors' one rule set (domain.product_editing) files every product; worded as the seed's
    CATEGORY_REQUIRED = "Category is required"
    COLLECTION_REQUIRED = "Collection is required"  # when the main category offers collections
    # ours: what the database refuses, said plainly
    SKU_TAKEN = 'Another product already uses the SKU "{sku}"'
    CATEGORY_NOT_FOUND = "The chosen category no longer exists"
    COLLECTION_NOT_IN_CATEGORY = "The chosen collection is not part of the chosen category"
    IMAGE_GONE = "An uploaded image is no longer available; please remove it and upload it again"
    PRODUCT_NOT_FOUND = "This product no longer exists"


class OrderAdminMessage(StrEnum):
    """The back office's orders screen (docs/spec/orders.md#placing has the call, not the screen: all ours but
    "Failed to update order status", kept in ``messages.OrderMessage``).

    Placeholders: status, target (status labels), number, amount, remaining (amounts), detail, n,
    name (an item's name).
    """

    LOAD_FAILED = "Failed to load orders"
    NOT_FOUND = "Order not found"
    NO_ORDERS = "No orders found"
    NO_ORDERS_YET = "Paid orders will appear here."
    ADJUST_SEARCH = "Try another search or status filter."
    NOT_PAID = "This order is still awaiting payment; it can be changed once it is paid."
    ALREADY = "This order is already {status}."
    FINAL = "A refunded order cannot be changed any more."
    TOO_LATE_TO_CANCEL = "A shipped order cannot be cancelled any more; refund it instead."
    NOTHING_TO_REFUND = "No payment is held for this order, so there is nothing to refund."
    NOT_CHARGED_CANCEL_INSTEAD = "Nothing was charged for this order: cancel it instead."
    NOT_ALLOWED = "An order that is {status} cannot be marked as {target}."
    TRACKING_REQUIRED = "Enter the tracking number to mark the order as shipped."
    TRACKING_TOO_LONG = "The tracking number can have at most {n} characters."
    TRACKING_INVALID = "The tracking number can only contain letters, digits, spaces and hyphens."
    CARRIER_REQUIRED = "Choose the carrier that took the parcel."
    NOTE_TOO_LONG = "The note can have at most {n} characters."
    CHANGED_MEANWHILE = (
        "Someone else changed this order meanwhile. Its current status is shown now; nothing was changed."
    )
    REFUND_REFUSED = "Square refused the refund: {detail} The order was not changed."
    REFUND_NO_ANSWER = (
        "Square did not answer, so the order was not changed. Please try again: the payment "
        "can never be refunded twice."
    )
    NO_SQUARE_PAYMENT = "The Square payment of this order is unknown, so it cannot be refunded here."
    CHANGED = "Order {number} is now {status}."
    CHANGED_AND_REFUNDED = "Order {number} is now {status}; {amount} was refunded to the customer."
    # refunds, full or partial (domain/refunds.py)
    REFUNDED_PART = "{amount} was refunded to the customer for order {number}; {remaining} remains charged."
    REFUND_MODE_INVALID = "Choose what to refund: items, an amount, or everything left."
    REFUND_NOTHING_CHOSEN = "Choose at least one item to refund."
    REFUND_NOT_A_LINE = "That item is not part of this order."
    REFUND_QUANTITY_INVALID = "The quantity of {name} to refund must be a whole number from 0 to {n}."
    REFUND_FREE_ITEMS = "These items cost nothing, so there is nothing to refund."
    REFUND_ITEMS_TOO_MUCH = (
        "These items come to {amount}, more than the {remaining} left to refund: refund an amount instead."
    )
    REFUND_AMOUNT_TOO_SMALL = "Enter an amount of at least $0.01 to refund."
    REFUND_AMOUNT_TOO_MUCH = "At most {remaining} is left to refund for this order."
    REFUND_NOTHING_LEFT = "Everything paid for this order has been refunded already."
    REFUND_AMOUNT_NO_RESTOCK = "A refund of an amount returns no items: refund items to return them to stock."
    REFUND_STOCK_BACK_ALREADY = "The items of a cancelled order are back in stock already."
    REFUND_KEY_REUSED = (
        "Square already has another refund from this dialog whose answer was lost: send that same "
        "refund again to record it. Nothing was changed."
    )


class ReconcileMessage(StrEnum):
    """The Reconcile screen (docs/spec/square.md#reconcile). Placeholders: n, message, products."""

    TITLE = "Reconcile with Square"
    INTRO = (
        "Where the shop and Square disagree, field by field. The shop's edits are sent to Square "
        "on their own; use this screen when Square was changed at the till or a send failed."
    )
    AGREE = "The shop and Square agree on every product."
    CHECK_AGAIN = "Check again"
    USE_SHOPS = "Use the shop's"
    USE_SQUARES = "Use Square's"
    ALL_SHOPS = "Use the shop's for all"
    ALL_SQUARES = "Use Square's for all"
    SEND_NOW = "Send now"
    WAITING = "Products waiting to be sent to Square: {products}."
    WAITING_ROW = "Waiting to be sent"
    FAILING = "Square did not take the last try: {message}"
    SETTLED = "Differences settled: {n}."
    CHANGED = "Not applied, changed since the list was shown: {n}. The list is up to date."
    FAILED = "Not settled ({n}): {message}"
    READ_FAILED = "Could not read Square: {message}"
    SENT = "Sent to Square: {n}."
    STILL_WAITING = "Still waiting for Square ({n}): {message}"


class DiscountAdminMessage(StrEnum):
    """The back office's Discount Codes screen (issue 19, acceptance 3: all ours).

    Placeholders: code, n (a count), limit (characters), amount (a money text).
    """

    LOAD_FAILED = "Failed to load discount codes"
    CREATED = "Discount code {code} created"
    UPDATED = "Discount code {code} updated"
    ACTIVATED = "Discount code {code} is active: shoppers can use it"
    DEACTIVATED = "Discount code {code} is off: shoppers can no longer use it"
    SAVE_FAILED = "Failed to save the discount code"
    FIX_FIELDS = "Please correct the fields marked in the form"
    NOT_FOUND = "This discount code no longer exists"
    CHANGED_ELSEWHERE = (
        "This code was changed elsewhere since you opened it (another tab or another admin), so "
        "your edit was not saved. Open it again to see the current values."
    )
    CODE_INVALID = "Use 3 to 32 letters, digits, hyphens or underscores, e.g. SPRING-10"
    CODE_TAKEN = "The code {code} is already taken: choose another"
    CODE_KEPT = "This code has been used, so it keeps its text: orders name it. Make a new code instead."
    KIND_INVALID = "Choose what the code gives"
    PERCENT_INVALID = "Enter a percentage from 0.01 to 100, e.g. 10 or 12.5"
    AMOUNT_INVALID = "Enter an amount from $0.01 to {amount}, e.g. 5 or 12.50"
    MINIMUM_INVALID = "Enter an amount up to {amount}, or leave it empty"
    DATE_INVALID = "Enter a date, or leave it empty"
    ENDS_BEFORE_STARTS = "The end date cannot be before the start date"
    LIMIT_INVALID = "Enter a whole number from 1 to 1,000,000, or leave it empty"
    LIMIT_BELOW_USES = "This code has been used {n} times already: the limit cannot be lower"
    PER_CUSTOMER_ABOVE_TOTAL = "A customer cannot use it more often than the code in all: {n} at most"
    NOTE_TOO_LONG = "The note can have at most {limit} characters"
    PRODUCT_GONE = "A chosen product no longer exists: remove it from the list"
    CATEGORY_GONE = "A chosen category no longer exists: untick it"
    NO_DELETE = "Codes are never deleted, since orders name their code: deactivate a code to stop it."
    NO_CODES = "No discount codes yet"
    NO_CODES_HINT = "Create a code to offer shoppers a discount at checkout."


class DiscountLabel(StrEnum):
    """How the Discount Codes list describes a code (issue 19: ours). Placeholders: percent,
    amount, used, limit, n."""

    STATUS_ACTIVE = "Active"
    STATUS_SCHEDULED = "Scheduled"
    STATUS_EXPIRED = "Expired"
    STATUS_USED_UP = "Used up"
    STATUS_OFF = "Off"
    PERCENT_OFF = "{percent}% off"
    AMOUNT_OFF = "{amount} off"
    FREE_SHIPPING = "Free shipping"
    MINIMUM = "Minimum {amount}"
    USES_OF = "{used} / {limit} uses"
    PER_CUSTOMER = "{n} per customer"
    FOR_PRODUCTS = "{n} products"
    FOR_ONE_PRODUCT = "1 product"
    FOR_CATEGORIES = "{n} categories"
    FOR_ONE_CATEGORY = "1 category"
    NO_LIMITS = "No limits"
