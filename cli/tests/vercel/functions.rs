//! The built functions, run as Vercel's `executable` runtime runs a `vercel_runtime` binary: the
//! function's folder as its working directory, only the environment it is given, a Unix socket
//! named by `VERCEL_IPC_PATH` on which it announces its HTTP port (`server-started`), requests
//! carrying the platform's invocation and request ids, and an `end` message on the socket for each
//! request (the platform waits for it before it counts the invocation done). A function that never
//! announces itself or answers without its `end` fails the test with what it logged.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::os::unix::net::UnixListener;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::Value;

/// How long a function may take to start and to send a request's `end` message.
const START_LIMIT: Duration = Duration::from_secs(20);
pub const END_LIMIT: Duration = Duration::from_secs(10);

pub struct Function {
    pub name: String,
    child: Mutex<Child>,
    pub port: u16,
    messages: Mutex<Receiver<Value>>,
    /// `end` messages received and not yet awaited: request ids to the message's error.
    ended: Mutex<BTreeMap<(String, u64), Value>>,
    /// What the function logged (its log messages, decoded, and its output), for failures.
    log: Arc<Mutex<Vec<String>>>,
    next_request: AtomicU64,
}

impl Function {
    /// Starts the function of `folder` (its `.func`), whose handler is `executable`, with `env`.
    /// The port it is given was free a moment before; if another process took it meanwhile, the
    /// function exits before announcing itself, and it is started again on another.
    pub fn start(
        name: &str,
        folder: &Path,
        executable: &Path,
        env: &BTreeMap<String, String>,
        scratch: &Path,
    ) -> Function {
        let mut tries = 0;
        loop {
            tries += 1;
            match Function::try_start(name, folder, executable, env, scratch) {
                Ok(function) => return function,
                Err(why) if tries < 3 => eprintln!("{name}: {why}; starting it again"),
                Err(why) => panic!("{name}: {why}"),
            }
        }
    }

    fn try_start(
        name: &str,
        folder: &Path,
        executable: &Path,
        env: &BTreeMap<String, String>,
        scratch: &Path,
    ) -> Result<Function, String> {
        let socket = scratch.join(format!("{}.sock", name.replace('/', "-")));
        let _ = std::fs::remove_file(&socket);
        let listener = UnixListener::bind(&socket).expect("the IPC socket binds");
        let port = crate::free_port();
        let mut command = Command::new(executable);
        command
            .current_dir(folder)
            .env_clear()
            .envs(env)
            .env("VERCEL_IPC_PATH", &socket)
            // The platform's port is its own affair; several functions run side by side here.
            .env("VERCEL_DEV_PORT", port.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // SAFETY: prctl is async-signal-safe; the function dies with the test process.
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut child = command.spawn().map_err(|e| format!("the function's executable does not start: {e}"))?;
        // Its output is read as it comes (a full pipe would stall it) and kept for failures.
        let log = Arc::new(Mutex::new(Vec::new()));
        let outputs: [Box<dyn std::io::Read + Send>; 2] =
            [Box::new(child.stdout.take().unwrap()), Box::new(child.stderr.take().unwrap())];
        for output in outputs {
            let log = log.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(output).lines().map_while(Result::ok) {
                    log.lock().unwrap().push(line);
                }
            });
        }
        let (sender, messages) = std::sync::mpsc::channel();
        let function = Function {
            name: name.to_owned(),
            child: Mutex::new(child),
            port,
            messages: Mutex::new(messages),
            ended: Mutex::default(),
            log,
            next_request: AtomicU64::new(1),
        };
        listener.set_nonblocking(true).unwrap();
        let start = Instant::now();
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if start.elapsed() > START_LIMIT || !function.running() {
                        return Err(function.failure("never connected to VERCEL_IPC_PATH"));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(function.failure(&format!("IPC accept: {e}"))),
            }
        };
        stream.set_nonblocking(false).unwrap();
        // Messages are JSON, each ended by a NUL byte.
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stream);
            let mut buffer = Vec::new();
            while reader.read_until(0, &mut buffer).is_ok_and(|n| n > 0) {
                if buffer.last() == Some(&0) {
                    buffer.pop();
                }
                let message: Value = serde_json::from_slice(&buffer)
                    .unwrap_or_else(|e| Value::String(format!("not JSON ({e}): {}", String::from_utf8_lossy(&buffer))));
                buffer.clear();
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let started = function.next_message(START_LIMIT, |m| m["type"] == "server-started")?;
        if started["payload"]["httpPort"] != port {
            return Err(function.failure(&format!("announced another port: {started}")));
        }
        Ok(function)
    }

    /// The next message that `wanted` accepts; log messages and requests' `end`s on the way are
    /// kept.
    fn next_message(&self, limit: Duration, wanted: impl Fn(&Value) -> bool) -> Result<Value, String> {
        let start = Instant::now();
        loop {
            let left = limit.saturating_sub(start.elapsed());
            if left.is_zero() {
                return Err(self.failure("no such IPC message in time"));
            }
            if let Some(message) = self.receive(left.min(Duration::from_millis(50)))? {
                if wanted(&message) {
                    return Ok(message);
                }
                return Err(self.failure(&format!("an IPC message of no known kind: {message}")));
            }
        }
    }

    /// Takes one message (waiting at most `wait`): a log line or an `end` is kept and `None` given;
    /// anything else is returned.
    fn receive(&self, wait: Duration) -> Result<Option<Value>, String> {
        let received = self.messages.lock().unwrap().recv_timeout(wait);
        match received {
            Ok(message) if message["type"] == "log" => {
                let text = message["payload"]["message"].as_str().unwrap_or_default();
                let text = base64::engine::general_purpose::STANDARD.decode(text).unwrap_or_default();
                self.log.lock().unwrap().push(String::from_utf8_lossy(&text).into_owned());
                Ok(None)
            }
            Ok(message) if message["type"] == "end" => {
                let context = &message["payload"]["context"];
                let invocation = context["invocationId"].as_str().unwrap_or_default().to_owned();
                let request = context["requestId"].as_u64().unwrap_or(0);
                self.ended.lock().unwrap().insert((invocation, request), message["payload"]["error"].clone());
                Ok(None)
            }
            Ok(message) => Ok(Some(message)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(self.failure("the IPC socket closed")),
        }
    }

    /// The ids the platform puts on a request.
    pub fn invocation(&self) -> (String, u64) {
        let request = self.next_request.fetch_add(1, Ordering::Relaxed);
        (format!("inv-{}-{request}", self.name.replace('/', "-")), request)
    }

    /// Waits for the `end` message of that request (requests may end in any order). vercel_runtime
    /// 2.4.1 puts no error in it; one that did would fail here.
    pub fn ended(&self, ids: &(String, u64)) -> Result<(), String> {
        let start = Instant::now();
        loop {
            if let Some(error) = self.ended.lock().unwrap().remove(ids) {
                return match error.is_null() {
                    true => Ok(()),
                    false => Err(self.failure(&format!("request {ids:?} ended with an error: {error}"))),
                };
            }
            if start.elapsed() > END_LIMIT {
                return Err(self.failure(&format!("no end message for request {ids:?} in {END_LIMIT:?}")));
            }
            if let Some(other) = self.receive(Duration::from_millis(50))? {
                return Err(self.failure(&format!("an IPC message of no known kind: {other}")));
            }
        }
    }

    /// Whether the process still runs.
    pub fn running(&self) -> bool {
        self.child.lock().unwrap().try_wait().is_ok_and(|status| status.is_none())
    }

    /// Stops the function; returns what it logged, with `what` went wrong.
    fn failure(&self, what: &str) -> String {
        let _ = self.child.lock().unwrap().kill();
        std::thread::sleep(Duration::from_millis(100));
        format!("function {}: {what}\nits log:\n{}", self.name, self.log.lock().unwrap().join("\n"))
    }
}

impl Drop for Function {
    fn drop(&mut self) {
        let mut child = self.child.lock().unwrap();
        let _ = child.kill();
        let _ = child.wait();
    }
}
