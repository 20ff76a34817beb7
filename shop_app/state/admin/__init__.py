"""Back-office states, one module per screen. Every handler re-checks the admin role on the server
(``guard.AdminGuardMixin._admin_user_id``); the page guard only decides what is shown."""
