//! The settings in force: what the file and overrides say, else BookSim's default; typed
//! reads that name the key and its origin when they fail.

use super::error::{ImportError, Origin};
use super::keys;
use super::line::Line;
use super::parse::{elements, Settings};

/// The settings of a config, read with BookSim's defaults.
pub struct Config<'a> {
    settings: &'a Settings,
}

impl<'a> Config<'a> {
    /// Wraps parsed settings.
    #[must_use]
    pub fn new(settings: &'a Settings) -> Self {
        Config { settings }
    }

    /// The value in force for `key` (a known key) and where it came from.
    #[must_use]
    pub fn get(&self, key: &str) -> (String, Origin) {
        match self.settings.get(key) {
            Some(s) => (s.value.clone(), s.origin.clone()),
            None => (
                keys::find(key).map_or("", |k| k.default).to_string(),
                Origin::Default,
            ),
        }
    }

    /// Was `key` written in the file or an override?
    #[must_use]
    pub fn is_set(&self, key: &str) -> bool {
        self.settings.contains_key(key)
    }

    /// `key` as an integer in `min..=max`.
    ///
    /// # Errors
    /// Not an integer, or out of range.
    pub fn int(&self, key: &str, min: i64, max: i64) -> Result<i64, ImportError> {
        let (value, origin) = self.get(key);
        match value.parse::<i64>() {
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            _ => Err(ImportError::BadValue {
                origin,
                key: key.into(),
                message: format!("expected an integer from {min} to {max}"),
                help: format!("write for example `{key} = {min};`").into(),
                value,
            }),
        }
    }

    /// An error for the value of `key` that flitsim cannot honour.
    #[must_use]
    pub fn unsupported(&self, key: &str, reason: &str, help: &str) -> ImportError {
        let (value, origin) = self.get(key);
        ImportError::Unsupported {
            origin,
            key: key.into(),
            value,
            reason: reason.into(),
            help: help.into(),
        }
    }

    /// An error for a value of `key` that BookSim itself would not accept.
    #[must_use]
    pub fn bad(&self, key: &str, message: &str, help: &str) -> ImportError {
        let (value, origin) = self.get(key);
        ImportError::BadValue {
            origin,
            key: key.into(),
            value,
            message: message.into(),
            help: help.into(),
        }
    }

    /// The mapping line of `key`, with the value in force.
    #[must_use]
    pub fn line(&self, key: &str, flitsim: impl Into<String>, note: Option<String>) -> Line {
        let (value, origin) = self.get(key);
        Line {
            key: key.into(),
            value,
            origin,
            flitsim: flitsim.into(),
            note,
        }
    }
}

/// `value` of `key` as a finite number in `[min, max]`.
pub fn float_value(
    key: &str,
    value: &str,
    origin: &Origin,
    min: f64,
    max: f64,
) -> Result<f64, ImportError> {
    match value.parse::<f64>() {
        Ok(v) if v.is_finite() && (min..=max).contains(&v) => Ok(v),
        _ => Err(ImportError::BadValue {
            origin: origin.clone(),
            key: key.into(),
            value: value.into(),
            message: format!("expected a number from {min} to {max}"),
            help: format!("write for example `{key} = {max};`").into(),
        }),
    }
}

/// The one value of `key`: a vector with more than one element (one value per traffic
/// class) is refused, since flitsim simulates one class.
///
/// # Errors
/// More elements than allowed.
pub fn single(config: &Config, key: &str) -> Result<String, ImportError> {
    let (value, _) = config.get(key);
    let parts = elements(&value);
    if parts.len() > 1 {
        return Err(config.unsupported(
            key,
            "a vector gives one value per traffic class and flitsim simulates one class",
            &format!("give one value, e.g. `{key} = {};`", parts[0]),
        ));
    }
    Ok(parts[0].to_string())
}
