//! What the tests of `deploy/` share: reading its files (YAML documents, systemd units,
//! environment files), walking YAML values, and checking a `hammer` command line
//! against the real argument parser. Each test binary uses a different subset.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde::Deserialize;
use serde_yaml_ng::Value;

use crate::support::HAMMER;

/// The port every engine uses for gRPC, and the metrics port.
pub const GRPC_PORT: u16 = 7070;

pub const METRICS_PORT: u16 = 9090;

/// The port the workers take their gang peers' streams on.
pub const PEER_PORT: u16 = 7171;

pub const TOKEN_VAR: &str = "HAMMER_TOKEN";

pub fn deploy_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy")
}

pub fn read(relative: &str) -> String {
    let path = deploy_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every YAML document of a file.
pub fn yaml_docs(relative: &str) -> Vec<Value> {
    let text = read(relative);
    serde_yaml_ng::Deserializer::from_str(&text)
        .map(|doc| Value::deserialize(doc).unwrap_or_else(|e| panic!("deploy/{relative}: {e}")))
        .filter(|v| !v.is_null())
        .collect()
}

/// Runs `hammer check-args -- ARGS`: the real clap parser, without running anything.
pub fn check_args(origin: &str, args: &[String]) {
    let output = Command::new(HAMMER)
        .arg("check-args")
        .arg("--")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run hammer check-args");
    assert!(
        output.status.success(),
        "{origin}: `hammer {}` is refused by the argument parser:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout.trim(),
        format!("ok {}", args[0]),
        "{origin}: unexpected subcommand"
    );
}

/// The value of `--name VALUE` or `--name=VALUE`.
pub fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    let prefix = format!("{name}=");
    args.iter().enumerate().find_map(|(i, a)| {
        if a == name {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix(&prefix)
        }
    })
}

pub fn required<'a>(args: &'a [String], name: &str, origin: &str) -> &'a str {
    flag(args, name).unwrap_or_else(|| panic!("{origin}: no {name} in {args:?}"))
}

/// (host, port) of `http://HOST:PORT` (or https).
pub fn url_host_port(url: &str) -> (String, u16) {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .unwrap_or_else(|| panic!("{url}: not an http(s) URL"));
    let rest = rest.trim_end_matches('/');
    let (host, port) = rest
        .rsplit_once(':')
        .unwrap_or_else(|| panic!("{url}: no port"));
    (host.to_owned(), port.parse().expect("numeric port"))
}

/// The port of `IP:PORT`.
pub fn addr_port(addr: &str) -> u16 {
    addr.parse::<std::net::SocketAddr>()
        .unwrap_or_else(|e| panic!("{addr}: {e}"))
        .port()
}

pub fn strings(value: &Value, origin: &str) -> Vec<String> {
    value
        .as_sequence()
        .unwrap_or_else(|| panic!("{origin}: not a list: {value:?}"))
        .iter()
        .map(|v| match v {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            other => panic!("{origin}: not a string: {other:?}"),
        })
        .collect()
}

pub fn at<'a>(value: &'a Value, path: &[&str]) -> &'a Value {
    let mut v = value;
    for key in path {
        v = v
            .get(*key)
            .unwrap_or_else(|| panic!("no {} in {value:?}", path.join(".")));
    }
    v
}

pub fn str_at<'a>(value: &'a Value, path: &[&str]) -> &'a str {
    at(value, path)
        .as_str()
        .unwrap_or_else(|| panic!("{} is not a string", path.join(".")))
}

pub fn int_at(value: &Value, path: &[&str]) -> u64 {
    at(value, path)
        .as_u64()
        .unwrap_or_else(|| panic!("{} is not an integer", path.join(".")))
}

/// Compose's interpolation of `${NAME:-default}` (a whole argument or part of one) with
/// nothing set: the default.
pub fn interpolated(args: Vec<String>) -> Vec<String> {
    args.into_iter()
        .map(|a| {
            let mut out = String::new();
            let mut rest = a.as_str();
            while let Some(start) = rest.find("${") {
                out.push_str(&rest[..start]);
                let end = rest[start..]
                    .find('}')
                    .unwrap_or_else(|| panic!("{a}: an unclosed ${{"));
                let inner = &rest[start + 2..start + end];
                match inner.split_once(":-") {
                    Some((_, default)) => out.push_str(default),
                    None => panic!("{a}: a variable without a default in a command"),
                }
                rest = &rest[start + end + 1..];
            }
            out.push_str(rest);
            out
        })
        .collect()
}

/// The `kind: Deployment` (or other kind) named `name` among the documents.
pub fn k8s<'a>(docs: &'a [Value], kind: &str, name: &str) -> &'a Value {
    docs.iter()
        .find(|d| {
            d.get("kind").and_then(Value::as_str) == Some(kind)
                && d.get("metadata")
                    .and_then(|m| m.get("name"))
                    .and_then(Value::as_str)
                    == Some(name)
        })
        .unwrap_or_else(|| panic!("no {kind} {name}"))
}

pub fn only_container(deployment: &Value) -> &Value {
    let containers = at(deployment, &["spec", "template", "spec", "containers"])
        .as_sequence()
        .expect("containers");
    assert_eq!(containers.len(), 1);
    &containers[0]
}

/// Where a container's volume named `name` is mounted.
pub fn mount_path<'a>(container: &'a Value, name: &str) -> &'a str {
    at(container, &["volumeMounts"])
        .as_sequence()
        .expect("volumeMounts")
        .iter()
        .find(|m| str_at(m, &["name"]) == name)
        .map(|m| str_at(m, &["mountPath"]))
        .unwrap_or_else(|| panic!("volume {name} is not mounted"))
}

/// The pod volume named `name` of a Deployment.
pub fn pod_volume<'a>(deployment: &'a Value, name: &str) -> &'a Value {
    at(deployment, &["spec", "template", "spec", "volumes"])
        .as_sequence()
        .expect("volumes")
        .iter()
        .find(|v| str_at(v, &["name"]) == name)
        .unwrap_or_else(|| panic!("no volume {name}"))
}

/// (secret name, key, file path in the container) of the token a Deployment's one
/// container reads with `--token-file`.
pub fn token_source(deployment: &Value, args: &[String]) -> (String, String, String) {
    let container = only_container(deployment);
    let file = required(args, "--token-file", "kubernetes").to_owned();
    let volumes = at(deployment, &["spec", "template", "spec", "volumes"])
        .as_sequence()
        .expect("volumes");
    for volume in volumes.iter().filter(|v| v.get("secret").is_some()) {
        let dir = mount_path(container, str_at(volume, &["name"]));
        for item in at(volume, &["secret", "items"])
            .as_sequence()
            .expect("secret items")
        {
            if format!("{dir}/{}", str_at(item, &["path"])) == file {
                return (
                    str_at(volume, &["secret", "secretName"]).to_owned(),
                    str_at(item, &["key"]).to_owned(),
                    file,
                );
            }
        }
    }
    panic!("--token-file {file} is no mounted Secret's item");
}

pub fn labels(value: &Value) -> BTreeMap<String, String> {
    value
        .as_mapping()
        .expect("labels")
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().expect("label").to_owned(),
                v.as_str().expect("label value").to_owned(),
            )
        })
        .collect()
}

/// `KEY=VALUE` lines of an environment file.
pub fn env_file(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l.split_once('=').expect("KEY=VALUE");
            (k.to_owned(), v.to_owned())
        })
        .collect()
}

/// `Key=value` lines of a unit's [Service] section.
pub fn unit_service(text: &str) -> BTreeMap<String, String> {
    let mut section = "";
    let mut keys = BTreeMap::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section == "[Service]" && !line.starts_with('#') && !line.is_empty() {
            let (k, v) = line.split_once('=').expect("Key=value");
            keys.insert(k.to_owned(), v.to_owned());
        }
    }
    keys
}

/// ExecStart split on spaces, with ${VAR} and $VAR replaced from `env` as systemd does.
pub fn exec_start(unit: &BTreeMap<String, String>, env: &BTreeMap<String, String>) -> Vec<String> {
    let line = &unit["ExecStart"];
    line.split_whitespace()
        .map(|word| {
            let mut word = word.to_owned();
            for (k, v) in env {
                word = word.replace(&format!("${{{k}}}"), v);
                if word == format!("${k}") {
                    word = v.clone();
                }
            }
            assert!(!word.contains('$'), "unknown variable in ExecStart: {word}");
            word
        })
        .collect()
}
