use super::*;

#[test]
fn base64_vectors() {
    assert_eq!(base64(b""), "");
    assert_eq!(base64(b"f"), "Zg==");
    assert_eq!(base64(b"fo"), "Zm8=");
    assert_eq!(base64(b"foo"), "Zm9v");
    assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
}

#[test]
fn file_names_are_unique() {
    let dir = std::env::temp_dir().join(format!("huarong-share-{}", std::process::id()));
    let t = Date::new(2026, 11, 29).unwrap().days() * 86_400_000 + 3_723_000;
    assert_eq!(card_file_name(t), "huarong-20261129-010203.png");
    let a = save_card(b"png", &dir, t).unwrap();
    let b = save_card(b"png", &dir, t).unwrap();
    assert_ne!(a, b);
    assert!(b
        .to_string_lossy()
        .ends_with("huarong-20261129-010203-2.png"));
    assert_eq!(std::fs::read(&b).unwrap(), b"png");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn card_args_are_checked() {
    let ok: CardArgs = serde_json::from_value(serde_json::json!({
        "code": code::encode("2048:#1").unwrap(), "moves": 10, "seconds": 5, "score": 100, "bestTile": 64
    }))
    .unwrap();
    let png = card_png(&ok.spec().unwrap()).unwrap();
    assert_eq!(&png[1..4], b"PNG");
    assert!(serde_json::from_value::<CardArgs>(
        serde_json::json!({"code": "x", "moves": 1, "seconds": 1, "evil": 1})
    )
    .is_err());
    let bad = CardArgs {
        lang: Some("fr".into()),
        ..ok.clone()
    };
    assert_eq!(bad.spec().unwrap_err().code, "parse");
    let bad = CardArgs {
        code: "1nope".into(),
        ..ok
    };
    assert_eq!(card_png(&bad.spec().unwrap()).unwrap_err().code, "bad_code");
}

#[test]
fn daily_info_counts_down_and_keeps_streaks() {
    let day = Date::new(2026, 3, 2).unwrap();
    let local = day.days() * 86_400_000 + 23 * 3_600_000;
    let info = daily_info_at(local, Some("2026-03-01"), Some(4)).unwrap();
    assert_eq!(info.number, 61);
    assert_eq!(info.date, "2026-03-02");
    assert_eq!(info.countdown, "01:00:00");
    assert_eq!(info.streak, 4);
    assert_eq!(
        daily_info_at(local, Some("2026-02-20"), Some(4))
            .unwrap()
            .streak,
        0
    );
    assert_eq!(
        daily_info_at(local, Some("garbage"), None)
            .unwrap_err()
            .code,
        "parse"
    );
}
