//! The desktop's notification server, played by the test: a private D-Bus session bus
//! (`dbus-daemon`) on which the test owns `org.freedesktop.Notifications`. Chromium on Linux shows
//! a site's notifications through that service, even headless, and treats its `ActionInvoked`
//! signal as the user's click: the service worker then gets a real `notificationclick`, with the
//! right to focus or open a tab that a script-made event does not have.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use zbus::zvariant::OwnedValue;

const PATH: &str = "/org/freedesktop/Notifications";
const INTERFACE: &str = "org.freedesktop.Notifications";

/// A notification as the browser asked the desktop to show it.
#[derive(Clone, Debug)]
pub struct Shown {
    pub id: u32,
    pub summary: String,
    pub body: String,
}

#[derive(Default)]
struct Server {
    shown: Arc<Mutex<Vec<Shown>>>,
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl Server {
    fn get_capabilities(&self) -> Vec<String> {
        vec!["actions".into(), "body".into()]
    }

    fn get_server_information(&self) -> (String, String, String, String) {
        ("tabula-test".into(), "tabula".into(), "1".into(), "1.2".into())
    }

    #[allow(clippy::too_many_arguments)] // the interface's signature
    fn notify(
        &self,
        _app_name: String,
        replaces_id: u32,
        _app_icon: String,
        summary: String,
        body: String,
        _actions: Vec<String>,
        _hints: HashMap<String, OwnedValue>,
        _expire_timeout: i32,
    ) -> u32 {
        let mut shown = self.shown.lock().unwrap();
        // A notification shown again (the same tag) replaces its earlier self, keeping its id.
        if let Some(earlier) = shown.iter_mut().find(|n| replaces_id != 0 && n.id == replaces_id) {
            (earlier.summary, earlier.body) = (summary, body);
            return replaces_id;
        }
        let id = shown.len() as u32 + 1;
        shown.push(Shown { id, summary, body });
        id
    }

    fn close_notification(&self, _id: u32) {}
}

/// The bus and the server on it; both end when dropped.
pub struct Desktop {
    bus: Child,
    dir: PathBuf,
    connection: zbus::Connection,
    shown: Arc<Mutex<Vec<Shown>>>,
    /// For `DBUS_SESSION_BUS_ADDRESS` of the browser's process.
    pub address: String,
}

impl Desktop {
    pub async fn start() -> Desktop {
        let dir = std::env::temp_dir().join(format!("tabula-dbus-{:x}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).unwrap();
        let address = format!("unix:path={}", dir.join("bus").display());
        let bus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--nopidfile", &format!("--address={address}")])
            .stdout(Stdio::null())
            // It notes each service it starts for the browser (the accessibility bus): noise.
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start dbus-daemon: {e}; `cargo xtask test` installs it"));
        let deadline = Instant::now() + Duration::from_secs(10);
        while !dir.join("bus").exists() {
            assert!(Instant::now() < deadline, "dbus-daemon made no socket in 10 s");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let shown = Arc::new(Mutex::new(Vec::new()));
        let connection = zbus::connection::Builder::address(address.as_str())
            .and_then(|b| b.name(INTERFACE))
            .and_then(|b| b.serve_at(PATH, Server { shown: shown.clone() }))
            .expect("a D-Bus connection")
            .build()
            .await
            .expect("the notification service on the test's bus");
        Desktop { bus, dir, connection, shown, address }
    }

    pub fn shown(&self) -> Vec<Shown> {
        self.shown.lock().unwrap().clone()
    }

    /// What a click on the notification's body does.
    pub async fn click(&self, id: u32) {
        self.connection
            .emit_signal(None::<zbus::names::BusName<'_>>, PATH, INTERFACE, "ActionInvoked", &(id, "default"))
            .await
            .expect("the click signal");
    }
}

impl Drop for Desktop {
    fn drop(&mut self) {
        let _ = self.bus.kill();
        let _ = self.bus.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
