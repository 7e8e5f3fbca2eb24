//! End-to-end tests of the real app (see `e2e_support` for the harness).
//! Run: `cargo build -p huarong-app && HUARONG_E2E=1 cargo test -p huarong-tests --test e2e`.

mod e2e_support;

use e2e_support::*;

#[test]
fn e2e_open_and_win_by_tap() {
    let _serial = serial();
    let Some(tools) = tools("e2e_open_and_win_by_tap") else {
        return;
    };
    let driver = Driver::start(&tools, "open_and_win");
    run(async {
        let app = driver
            .launch(&["--open", "slide:3x3:1,2,3,4,5,6,7,0,8"])
            .await;
        let b = app.wait_board().await;
        assert_eq!(b.game, "slide");
        assert_eq!(b.state, "3x3:1,2,3,4,5,6,7,0,8");
        assert_eq!((b.moves, b.status.as_str()), (0, "playing"));
        app.shot("smoke").await;
        app.click("[data-tile='8']").await;
        let b = app.wait_moves_change(0).await;
        assert_eq!(b.status, "won");
        assert_eq!(b.moves, 1);
        app.quit().await;
    });
}
