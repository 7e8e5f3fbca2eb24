//! (module being written: see the engine issue)
