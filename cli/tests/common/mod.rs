//! What the CLI's test binaries share: a `tabula serve` started on a free port with its own data
//! file, and the waiting for ports.
// Each test binary uses a part of this module.
#![allow(dead_code)]

//! `tabula serve` as the tests run it: the real binary on a free loopback port with its own rooms
//! file, stopped when dropped, and restartable on the same port with the same rooms.

pub mod players;

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

pub fn wait_for_port(port: u16, what: &str) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "{what} never listened on {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `tabula serve` with a site folder (built or not) and a fresh rooms file.
pub struct Server {
    process: Option<Process>,
    pub base: String,
    port: u16,
    data: PathBuf,
    site: PathBuf,
    env: Vec<(String, String)>,
}

/// The server stopped, its rooms file goes (with SQLite's journal files beside it).
impl Drop for Server {
    fn drop(&mut self) {
        self.process = None;
        for suffix in ["", "-wal", "-shm"] {
            let mut path = self.data.clone().into_os_string();
            path.push(suffix);
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Server {
    pub fn start(site: PathBuf) -> Server {
        Self::start_with_env(site, &[])
    }

    /// The same, with extra environment variables (`TABULA_ABANDON_SECONDS`, say).
    pub fn start_with_env(site: PathBuf, env: &[(&str, &str)]) -> Server {
        let port = free_port();
        let data = std::env::temp_dir().join(format!("tabula-test-{}-{port}.db", std::process::id()));
        let _ = std::fs::remove_file(&data);
        let env = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        let base = format!("http://127.0.0.1:{port}");
        let mut server = Server { process: None, base, port, data, site, env };
        server.restart();
        server
    }

    /// Stops the server (the page loses its connection); `restart` brings it back on the same port
    /// with the same rooms.
    pub fn stop(&mut self) {
        self.process = None;
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        self.process.as_ref().expect("the server runs").0.id()
    }

    /// The server's resident memory now, in KiB (`VmRSS`).
    pub fn memory_kib(&self) -> u64 {
        let pid = self.process.as_ref().expect("the server runs").0.id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("the server's /proc status");
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS in /proc status");
        line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("VmRSS in kB")
    }

    pub fn restart(&mut self) {
        let (port, data) = (self.port, &self.data);
        let child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["serve", "--port", &port.to_string(), "--data"])
            .arg(data)
            .arg("--site")
            .arg(&self.site)
            .env_remove("SUPABASE_URL")
            .env_remove("SUPABASE_REST_URL")
            .env_remove("SUPABASE_REALTIME_URL")
            .env_remove("SUPABASE_ANON_KEY")
            .env_remove("SUPABASE_PUBLISHABLE_KEY")
            .env_remove("RATE_LIMIT_PER_MINUTE")
            .env_remove("TABULA_ABANDON_SECONDS")
            .env_remove("VAPID_PUBLIC_KEY")
            .env_remove("VAPID_PRIVATE_KEY")
            .env_remove("VAPID_SUBJECT")
            .env_remove("PUSH_SERVICE_HOSTS")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdout(Stdio::null())
            .spawn()
            .expect("tabula serve starts");
        self.process = Some(Process(child));
        wait_for_port(port, "tabula serve");
    }
}
