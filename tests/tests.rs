//! The one integration-test binary: each module is a topic.
