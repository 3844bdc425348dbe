//! Collects every error of one invocation (serde_derive's `Ctxt`), so that one compile
//! reports all of them together.

/// The errors found so far.
#[derive(Default)]
pub struct Ctxt {
    errors: Option<syn::Error>,
}

impl Ctxt {
    pub fn error(&mut self, e: syn::Error) {
        match &mut self.errors {
            Some(all) => all.combine(e),
            None => self.errors = Some(e),
        }
    }

    pub fn has_errors(&self) -> bool {
        self.errors.is_some()
    }

    /// All errors combined into one (each still renders as its own `compile_error!`).
    pub fn into_error(self) -> Option<syn::Error> {
        self.errors
    }
}
