//! The card's style: its language, its theme and its faces (the font subsets in `assets/`).

use ab_glyph::{Font, FontRef};
use huarong_engine::{Error, ErrorCode};

pub(crate) static REGULAR: &[u8] = include_bytes!("../assets/HuarongCard-Regular.otf");
pub(crate) static BOLD: &[u8] = include_bytes!("../assets/HuarongCard-Bold.otf");
pub(crate) static SERIF: &[u8] = include_bytes!("../assets/HuarongCard-SerifBold.otf");
#[cfg(feature = "embedded-name-font")]
static NAMES: &[u8] = include_bytes!("../assets/HuarongCard-Names.otf");
static INSTALLED_NAMES: std::sync::OnceLock<&'static [u8]> = std::sync::OnceLock::new();

/// The face of players' names: compiled in (`embedded-name-font`), else installed.
fn name_font() -> Option<&'static [u8]> {
    #[cfg(feature = "embedded-name-font")]
    return Some(NAMES);
    #[cfg(not(feature = "embedded-name-font"))]
    INSTALLED_NAMES.get().copied()
}

/// Installs the face of players' names (`assets/HuarongCard-Names.otf`) in a build without
/// `embedded-name-font` (the web page can fetch it when it first makes a card, as it fetches
/// the 4×4 tables). A second install, or one into a build that has the face, changes nothing;
/// bytes that are no font are a `parse` error.
pub fn install_name_font(bytes: Vec<u8>) -> Result<(), Error> {
    FontRef::try_from_slice(&bytes).map_err(|_| Error::parse("the names' face is not a font"))?;
    if name_font().is_some() {
        return Ok(());
    }
    let data: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    let font =
        FontRef::try_from_slice(data).map_err(|_| Error::parse("the names' face is not a font"))?;
    if font.glyph_id('华').0 == 0 {
        return Err(Error::parse("the names' face does not write Chinese"));
    }
    let _ = INSTALLED_NAMES.set(data);
    Ok(())
}

/// Whether this build can write players' names beyond Latin (compiled in or installed).
pub fn has_name_font() -> bool {
    name_font().is_some()
}

/// The card's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    Zh,
    En,
}

impl Lang {
    pub fn parse(text: &str) -> Result<Lang, Error> {
        match text.trim().to_ascii_lowercase().as_str() {
            "zh" | "zh-cn" | "zh-hans" | "cn" => Ok(Lang::Zh),
            "en" | "en-us" | "en-gb" => Ok(Lang::En),
            other => Err(Error::parse(format!(
                "unknown card language {other:?} (expected zh or en)"
            ))),
        }
    }
}

/// The card's palette: the light card (warm paper, vermilion band) or the dark one
/// (ink-stone, as the app's dark theme).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Light,
    Dark,
}

impl Theme {
    pub fn parse(text: &str) -> Result<Theme, Error> {
        match text.trim().to_ascii_lowercase().as_str() {
            "light" => Ok(Theme::Light),
            "dark" => Ok(Theme::Dark),
            other => Err(Error::parse(format!(
                "unknown card theme {:?} (expected light or dark)",
                other.chars().take(20).collect::<String>()
            ))),
        }
    }
}

/// The card's faces: sans regular and bold for the texts, serif bold for the Klotski
/// pieces' Chinese names (the game's face font), and the bold face of players' names where
/// this build has it ([`install_name_font`]).
pub(crate) struct Fonts<'a> {
    pub regular: FontRef<'a>,
    pub bold: FontRef<'a>,
    pub serif: FontRef<'a>,
    pub names: Option<FontRef<'a>>,
}

impl Fonts<'static> {
    pub(crate) fn load() -> Result<Fonts<'static>, Error> {
        let font_err = |_| Error::new(ErrorCode::Unsupported, "the card's font is damaged");
        Ok(Fonts {
            regular: FontRef::try_from_slice(REGULAR).map_err(font_err)?,
            bold: FontRef::try_from_slice(BOLD).map_err(font_err)?,
            serif: FontRef::try_from_slice(SERIF).map_err(font_err)?,
            names: name_font()
                .map(|data| FontRef::try_from_slice(data).map_err(font_err))
                .transpose()?,
        })
    }
}

impl<'a> Fonts<'a> {
    /// The face that writes `ch` in bold: the card's own, else the names' face.
    pub(crate) fn bold_for(&self, ch: char) -> Option<&FontRef<'a>> {
        if self.bold.glyph_id(ch).0 != 0 {
            return Some(&self.bold);
        }
        self.names.as_ref().filter(|f| f.glyph_id(ch).0 != 0)
    }
}
