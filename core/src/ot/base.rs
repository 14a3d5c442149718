//! Base OT (placeholder: being written).
