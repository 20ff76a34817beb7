"""Pure business rules of the shop: no I/O, no Reflex, no database.

Every function here takes plain values and returns plain values, so the rules can be unit- and
property-tested in isolation and reused by services, states and API routes alike.
"""
