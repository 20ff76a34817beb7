"""Back-office states, one module per screen. Every handler is written with
``guard.admin_event``, which re-checks the admin role on the server; the page guard only decides
what is shown."""
