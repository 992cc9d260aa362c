//! The built functions, run as Vercel's `executable` runtime runs a `vercel_runtime` binary: the
//! function's folder as its working directory, only the environment it is given, a Unix socket
//! named by `VERCEL_IPC_PATH` on which it announces its HTTP port (`server-started`), requests
//! carrying the platform's invocation and request ids, and an `end` message on the socket for each
//! request (the platform waits for it before it counts the invocation done). A function that never
//! announces itself, answers without its `end`, or exits fails the test with what it logged.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::Value;

/// How long a function may take to start and to send a request's `end` message.
const START_LIMIT: Duration = Duration::from_secs(20);
const END_LIMIT: Duration = Duration::from_secs(10);

pub struct Function {
    pub name: String,
    child: Mutex<Child>,
    pub port: u16,
    messages: Mutex<Receiver<Value>>,
    /// What the function logged (its log messages, decoded, and its output), for failures.
    log: std::sync::Arc<Mutex<Vec<String>>>,
    next_request: AtomicU64,
}

impl Function {
    /// Starts the function of `folder` (its `.func`), whose handler is `executable`, with `env`.
    pub fn start(
        name: &str,
        folder: &Path,
        executable: &Path,
        env: &BTreeMap<String, String>,
        scratch: &Path,
    ) -> Function {
        let socket = scratch.join(format!("{}.sock", name.replace('/', "-")));
        let _ = std::fs::remove_file(&socket);
        let listener = UnixListener::bind(&socket).expect("the IPC socket binds");
        let port = crate::free_port();
        let mut child = Command::new(executable)
            .current_dir(folder)
            .env_clear()
            .envs(env)
            .env("VERCEL_IPC_PATH", &socket)
            // The platform's port is its own affair; several functions run side by side here.
            .env("VERCEL_DEV_PORT", port.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{name}: the function's executable does not start: {e}"));
        // Its output is read as it comes (a full pipe would stall it) and kept for failures.
        let log = std::sync::Arc::new(Mutex::new(Vec::new()));
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
        listener.set_nonblocking(true).unwrap();
        let start = Instant::now();
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    assert!(start.elapsed() < START_LIMIT, "{name}: never connected to VERCEL_IPC_PATH");
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => panic!("{name}: IPC accept: {e}"),
            }
        };
        stream.set_nonblocking(false).unwrap();
        // Messages are JSON, each ended by a NUL byte.
        let (sender, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stream);
            let mut buffer = Vec::new();
            while reader.read_until(0, &mut buffer).is_ok_and(|n| n > 0) {
                if buffer.last() == Some(&0) {
                    buffer.pop();
                }
                let message: Value = serde_json::from_slice(&buffer).expect("an IPC message is JSON");
                buffer.clear();
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        let function = Function {
            name: name.to_owned(),
            child: Mutex::new(child),
            port,
            messages: Mutex::new(messages),
            log,
            next_request: AtomicU64::new(1),
        };
        let started = function.next_message(START_LIMIT, |m| m["type"] == "server-started");
        assert_eq!(started["payload"]["httpPort"], port, "{name}: announced another port: {started}");
        function
    }

    /// The next message that `wanted` accepts; log messages on the way are kept.
    fn next_message(&self, limit: Duration, wanted: impl Fn(&Value) -> bool) -> Value {
        let messages = self.messages.lock().unwrap();
        let start = Instant::now();
        loop {
            let left = limit.saturating_sub(start.elapsed());
            match messages.recv_timeout(left) {
                Ok(message) if wanted(&message) => return message,
                Ok(message) if message["type"] == "log" => {
                    let text = message["payload"]["message"].as_str().unwrap_or_default();
                    let text = base64::engine::general_purpose::STANDARD.decode(text).unwrap_or_default();
                    self.log.lock().unwrap().push(String::from_utf8_lossy(&text).into_owned());
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => self.fail("no such IPC message in time"),
                Err(RecvTimeoutError::Disconnected) => self.fail("the IPC socket closed"),
            }
        }
    }

    /// The ids the platform puts on a request, and a way to wait for its `end`.
    pub fn invocation(&self) -> (String, u64) {
        let request = self.next_request.fetch_add(1, Ordering::Relaxed);
        (format!("inv-{}-{request}", self.name.replace('/', "-")), request)
    }

    /// Waits for the `end` message of that request; it must carry no error.
    pub fn ended(&self, (invocation, request): &(String, u64)) {
        let end = self.next_message(END_LIMIT, |m| {
            m["type"] == "end"
                && m["payload"]["context"]["invocationId"] == invocation.as_str()
                && m["payload"]["context"]["requestId"] == *request
        });
        if !end["payload"]["error"].is_null() {
            self.fail(&format!("the request ended with an error: {end}"));
        }
    }

    /// Whether the process still runs.
    pub fn running(&self) -> bool {
        self.child.lock().unwrap().try_wait().is_ok_and(|status| status.is_none())
    }

    fn fail(&self, what: &str) -> ! {
        let _ = self.child.lock().unwrap().kill();
        std::thread::sleep(Duration::from_millis(100));
        panic!("function {}: {what}\nits log:\n{}", self.name, self.log.lock().unwrap().join("\n"));
    }
}

impl Drop for Function {
    fn drop(&mut self) {
        let mut child = self.child.lock().unwrap();
        let _ = child.kill();
        let _ = child.wait();
    }
}
