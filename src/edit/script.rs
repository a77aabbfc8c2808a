//! Script grammar (todo).
