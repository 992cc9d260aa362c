//! What the CLI's test binaries share: `tabula serve` as the tests run it (the real binary on a
//! free loopback port with its own rooms file, stopped when dropped, and restartable on the same
//! port with the same rooms), and the waiting for ports.
// Each test binary uses a part of this module.
#![allow(dead_code)]

pub mod players;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A loopback port free now and not handed out before in this test binary: the kernel may give a
/// port just let go to the next caller, and two servers of one binary would then share it.
pub fn free_port() -> u16 {
    static HANDED_OUT: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    loop {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        if HANDED_OUT.lock().unwrap().insert(port) {
            return port;
        }
    }
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

/// How long a starting server may take to print its address (it binds before it prints).
const FIRST_LINE_LIMIT: Duration = Duration::from_secs(60);

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
        // Another program may take the port between `free_port` and the server's bind.
        let mut first_line = String::new();
        for _ in 0..5 {
            match server.try_start() {
                Ok(()) => return server,
                Err(line) => first_line = line,
            }
            server.port = free_port();
            server.base = format!("http://127.0.0.1:{}", server.port);
        }
        panic!("tabula serve did not start in five tries, each on a new port; its first line: {first_line:?}");
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
        if let Err(line) = self.try_start() {
            panic!("tabula serve could not listen on port {} again; its first line: {line:?}", self.port);
        }
    }

    /// Starts the server on its port, or returns its first line if that is not `serve.rs`'s
    /// "Tabula on http://HOST:PORT ..." for this port (it could not listen there and has ended): so
    /// an answer from another program on the port is never taken for this server's.
    fn try_start(&mut self) -> Result<(), String> {
        let (port, data) = (self.port, &self.data);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
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
            .stdout(Stdio::piped())
            .spawn()
            .expect("tabula serve starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("a piped stdout"));
        let process = Process(child);
        // Read on a thread, so a server that hangs before its first line fails the test instead
        // of holding CI until its time runs out; the thread then drains the rest.
        let (sender, first_line) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut first = String::new();
            let _ = stdout.read_line(&mut first);
            let _ = sender.send(first);
            std::io::copy(&mut stdout, &mut std::io::sink())
        });
        let first = first_line
            .recv_timeout(FIRST_LINE_LIMIT)
            .unwrap_or_else(|_| panic!("tabula serve printed no first line within {FIRST_LINE_LIMIT:?} (port {port})"));
        if !first.contains(&format!(":{port} ")) {
            return Err(first);
        }
        self.process = Some(process);
        wait_for_port(port, "tabula serve");
        Ok(())
    }
}
