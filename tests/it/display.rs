//! `linkscan display` and the display form in HTML: what people see of a link, in every
//! script and paragraph direction (`linkscan::display`).

use crate::common;

/// The set of look-alikes follows `confusables.txt`: every non-identifier source whose
/// prototype is one of `/ ? # . :` is in it, and nothing else but the Latin glottal stops
/// and the compatibility forms (fullwidth, small and vertical).
#[test]
fn syntax_lookalikes_follow_confusables() {
    use linkscan::display::SYNTAX_LOOKALIKES;
    let path = common::unicode("17.0.0").join("security/confusables.txt");
    let text = common::read(path);
    let mut from_file = Vec::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        if fields.len() < 3 || fields[0].contains(' ') || fields[0].starts_with('#') {
            continue;
        }
        let Ok(source) = u32::from_str_radix(fields[0].trim_start_matches('\u{FEFF}'), 16) else {
            continue;
        };
        let target = fields[1];
        let symbol = fields[2].contains("#*");
        if ["002F", "003F", "0023", "002E", "003A"].contains(&target) && symbol {
            from_file.push(char::from_u32(source).unwrap());
        }
    }
    assert!(from_file.len() > 20, "{from_file:?}");
    let table: Vec<char> = SYNTAX_LOOKALIKES.iter().map(|&(c, _)| c).collect();
    for c in &from_file {
        assert!(table.contains(c), "{c:?} is missing");
    }
    for c in table {
        let compat = matches!(c as u32, 0xFE10..=0xFE6F | 0xFF00..=0xFFEF);
        assert!(
            from_file.contains(&c) || compat || c == '\u{0241}' || c == '\u{0294}',
            "{c:?} is not from confusables.txt"
        );
    }
}
