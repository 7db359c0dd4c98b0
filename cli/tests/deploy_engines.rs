//! The engines that cannot run here, checked against the ones that can:
//!
//! - the Kubernetes manifests describe the very processes the Compose file runs (and
//!   `compose.rs` runs for real): the same flags, image, ports, health probe, mounts,
//!   token file, log level and stop grace. Only what a Deployment needs differs
//!   (`--stay-after-complete`, the coordinator's name on the network, and
//!   `--peer-advertise`: a pod's host name resolves only as POD.SERVICE, while a
//!   container's resolves as it is).
//! - the standing overlay (`deploy/kubernetes-standing/`) runs the coordinator Compose's
//!   `standing.yaml` runs, with the same two token roles; its patches are applied here as
//!   kustomize applies them, and compared with `kubectl kustomize` where kubectl is
//!   installed.
//! - the systemd units pass `systemd-analyze verify` (prints SKIPPED without it).

mod deploy_files;
mod support;

use std::collections::BTreeSet;
use std::process::Command;

use deploy_files::*;
use serde_yaml_ng::Value;

/// `${NAME:-default}` as Compose reads it with nothing set: the default.
fn compose_default(text: &str) -> String {
    interpolated(vec![text.to_owned()]).remove(0)
}

/// (source, target) of a Compose `SOURCE:TARGET[:ro]` volume, defaults filled in.
fn compose_mounts(service: &Value) -> Vec<(String, String)> {
    strings(at(service, &["volumes"]), "volumes")
        .iter()
        .map(|v| {
            // The source may be `${NAME:-default}` with a ':' inside the braces.
            let (source, rest) = match v.strip_prefix("${") {
                Some(r) => {
                    let end = r.find('}').expect("closing brace") + 3;
                    (compose_default(&v[..end]), &v[end + 1..])
                }
                None => {
                    let (s, r) = v.split_once(':').expect("SOURCE:TARGET");
                    (s.to_owned(), r)
                }
            };
            let target = rest.split(':').next().expect("target").to_owned();
            (source, target)
        })
        .collect()
}

/// A Compose duration (`60s`) or a number of seconds, in seconds.
fn seconds(value: &Value) -> u64 {
    match value {
        Value::Number(n) => n.as_u64().expect("whole seconds"),
        Value::String(s) => s
            .strip_suffix('s')
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{s}: not a duration in seconds")),
        other => panic!("not a duration: {other:?}"),
    }
}

/// `--coordinator`'s URL replaced by its port: the host is each engine's own name for
/// the coordinator (a Compose service, a Kubernetes Service).
fn without_host(mut args: Vec<String>) -> Vec<String> {
    if let Some(i) = args.iter().position(|a| a == "--coordinator") {
        let (_, port) = url_host_port(&args[i + 1]);
        args[i + 1] = format!("<coordinator>:{port}");
    }
    args
}

fn env_value(container: &Value, name: &str) -> String {
    at(container, &["env"])
        .as_sequence()
        .expect("env")
        .iter()
        .find(|e| str_at(e, &["name"]) == name)
        .map(|e| str_at(e, &["value"]).to_owned())
        .unwrap_or_else(|| panic!("no {name} in env"))
}

#[test]
fn kubernetes_runs_the_processes_compose_runs() {
    let compose = &yaml_docs("compose/compose.yaml")[0];
    let mut docs = Vec::new();
    for file in ["coordinator.yaml", "worker.yaml", "sweep-configmap.yaml"] {
        docs.extend(yaml_docs(&format!("kubernetes/{file}")));
    }
    let configmap = k8s(&docs, "ConfigMap", "hammer-sweep");
    for (name, deployment) in [
        ("coordinator", "hammer-coordinator"),
        ("worker", "hammer-worker"),
    ] {
        let service = at(compose, &["services", name]);
        let deployment = k8s(&docs, "Deployment", deployment);
        let container = only_container(deployment);

        // The same command line, but for what a Deployment needs.
        let c_args = interpolated(strings(at(service, &["command"]), "command"));
        // `$(NAME)` is what Kubernetes expands from the container's env.
        let mut k_args: Vec<String> = strings(at(container, &["args"]), "args")
            .into_iter()
            .filter(|a| a != "--stay-after-complete")
            .map(
                |a| match a.strip_prefix("$(").and_then(|a| a.strip_suffix(')')) {
                    Some(name) => env_value(container, name),
                    None => a,
                },
            )
            .collect();
        if let Some(i) = k_args.iter().position(|a| a == "--peer-advertise") {
            k_args.drain(i..i + 2);
        }
        assert_eq!(without_host(k_args), without_host(c_args.clone()), "{name}");

        assert_eq!(
            compose_default(str_at(service, &["image"])),
            str_at(container, &["image"]),
            "{name}: image"
        );
        assert_eq!(
            compose_default(str_at(service, &["environment", "HAMMER_LOG"])),
            env_value(container, "HAMMER_LOG"),
            "{name}: HAMMER_LOG"
        );
        assert_eq!(
            seconds(at(service, &["stop_grace_period"])),
            int_at(
                deployment,
                &["spec", "template", "spec", "terminationGracePeriodSeconds"]
            ),
            "{name}: the time SIGTERM is given"
        );

        // The token: a file at the same path, from Compose's secret or the Secret.
        let token = required(&c_args, "--token-file", name);
        let secret = at(compose, &["secrets", "hammer_token"]);
        assert!(secret.get("file").is_some());
        assert_eq!(token, "/run/secrets/hammer_token", "{name}");
        let volume = at(deployment, &["spec", "template", "spec", "volumes"])
            .as_sequence()
            .expect("volumes")
            .iter()
            .find(|v| v.get("secret").is_some())
            .expect("a Secret volume");
        let item = &at(volume, &["secret", "items"])
            .as_sequence()
            .expect("items")[0];
        assert_eq!(
            format!(
                "{}/{}",
                mount_path(container, str_at(volume, &["name"])),
                str_at(item, &["path"])
            ),
            token,
            "{name}: the Secret's file"
        );
    }

    // The coordinator: ports, probe, data and sweep mounts.
    let service = at(compose, &["services", "coordinator"]);
    let deployment = k8s(&docs, "Deployment", "hammer-coordinator");
    let container = only_container(deployment);
    let published: BTreeSet<u64> = strings(at(service, &["ports"]), "ports")
        .iter()
        .map(|p| {
            let port = compose_default(p.rsplit(':').next().expect("port"));
            port.parse().expect("container port")
        })
        .collect();
    let exposed: BTreeSet<u64> = at(container, &["ports"])
        .as_sequence()
        .expect("ports")
        .iter()
        .map(|p| int_at(p, &["containerPort"]))
        .collect();
    assert_eq!(published, exposed, "the coordinator's ports");

    let check = strings(at(service, &["healthcheck", "test"]), "healthcheck");
    let (_, check_port) = url_host_port(required(&check[2..], "--coordinator", "health"));
    for probe in ["readinessProbe", "livenessProbe"] {
        assert_eq!(
            int_at(container, &[probe, "grpc", "port"]),
            u64::from(check_port),
            "{probe}"
        );
        assert_eq!(
            str_at(container, &[probe, "grpc", "service"]),
            required(&check[2..], "--service", "health"),
            "{probe}: the same gRPC health service as Compose's health check"
        );
    }

    let mounts = compose_mounts(service);
    let target = |source: &str| {
        mounts
            .iter()
            .find(|(s, _)| s == source)
            .map(|(_, t)| t.clone())
            .unwrap_or_else(|| panic!("{source} is not mounted: {mounts:?}"))
    };
    assert_eq!(
        target("hammer-data"),
        mount_path(container, "data"),
        "the data volume"
    );
    let sweep = target("../../examples/quickstart.toml");
    let (dir, key) = sweep.rsplit_once('/').expect("a path");
    assert_eq!(dir, mount_path(container, "sweep"), "the sweep's directory");
    // The ConfigMap holds the very sweep Compose mounts by default.
    let quickstart = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/quickstart.toml"),
    )
    .expect("read examples/quickstart.toml");
    assert_eq!(
        str_at(configmap, &["data", key]).trim(),
        quickstart.trim(),
        "the ConfigMap's sweep is examples/quickstart.toml"
    );
}

/// `/a/b/0` as the keys and indices of a JSON pointer.
fn pointer(path: &str) -> Vec<String> {
    path.split('/')
        .skip(1)
        .map(|p| p.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// The node at `path`, which must exist.
fn node_mut<'a>(mut value: &'a mut Value, path: &[String]) -> &'a mut Value {
    for key in path {
        value = match value {
            Value::Sequence(items) => {
                let i: usize = key.parse().unwrap_or_else(|_| panic!("index {key}"));
                items.get_mut(i).unwrap_or_else(|| panic!("no item {key}"))
            }
            Value::Mapping(map) => map
                .get_mut(key.as_str())
                .unwrap_or_else(|| panic!("no key {key}")),
            other => panic!("{key} inside a scalar {other:?}"),
        };
    }
    value
}

/// Applies JSON 6902 operations (test, replace, remove, add) as kustomize does.
fn json_patch(target: &mut Value, ops: &Value) {
    for op in ops.as_sequence().expect("a list of operations") {
        let path = pointer(str_at(op, &["path"]));
        let (last, parent) = path.split_last().expect("a path below the root");
        let parent = node_mut(target, parent);
        match str_at(op, &["op"]) {
            "test" => assert_eq!(
                node_mut(parent, std::slice::from_ref(last)),
                at(op, &["value"]),
                "test {path:?}"
            ),
            "replace" => *node_mut(parent, std::slice::from_ref(last)) = at(op, &["value"]).clone(),
            "remove" => match parent {
                Value::Sequence(items) => {
                    items.remove(last.parse().expect("index"));
                }
                Value::Mapping(map) => {
                    map.remove(last.as_str()).expect("the key to remove");
                }
                other => panic!("remove inside {other:?}"),
            },
            "add" => match parent {
                Value::Sequence(items) if last == "-" => items.push(at(op, &["value"]).clone()),
                Value::Sequence(items) => {
                    items.insert(last.parse().expect("index"), at(op, &["value"]).clone())
                }
                Value::Mapping(map) => {
                    map.insert(Value::from(last.as_str()), at(op, &["value"]).clone());
                }
                other => panic!("add inside {other:?}"),
            },
            other => panic!("operation {other} is not one the overlay should need"),
        }
    }
}

/// The base's documents with the standing overlay's patches applied.
fn standing_docs() -> Vec<Value> {
    let overlay = &yaml_docs("kubernetes-standing/kustomization.yaml")[0];
    assert_eq!(
        strings(at(overlay, &["resources"]), "resources"),
        ["../kubernetes"]
    );
    let base = &yaml_docs("kubernetes/kustomization.yaml")[0];
    let mut docs = Vec::new();
    for resource in strings(at(base, &["resources"]), "resources") {
        docs.extend(yaml_docs(&format!("kubernetes/{resource}")));
    }
    for patch in at(overlay, &["patches"]).as_sequence().expect("patches") {
        let body: Value = serde_yaml_ng::from_str(str_at(patch, &["patch"])).expect("patch parses");
        match patch.get("target") {
            // A strategic merge patch that deletes one object.
            None => {
                assert_eq!(str_at(&body, &["$patch"]), "delete");
                let (kind, name) = (
                    str_at(&body, &["kind"]),
                    str_at(&body, &["metadata", "name"]),
                );
                let before = docs.len();
                docs.retain(|d| {
                    !(str_at(d, &["kind"]) == kind && str_at(d, &["metadata", "name"]) == name)
                });
                assert_eq!(docs.len() + 1, before, "{kind} {name} deleted once");
            }
            Some(target) => {
                let (kind, name) = (str_at(target, &["kind"]), str_at(target, &["name"]));
                let doc = docs
                    .iter_mut()
                    .find(|d| {
                        str_at(d, &["kind"]) == kind && str_at(d, &["metadata", "name"]) == name
                    })
                    .unwrap_or_else(|| panic!("no {kind} {name} to patch"));
                json_patch(doc, &body);
            }
        }
    }
    docs
}

#[test]
fn the_standing_kubernetes_overlay_runs_what_compose_standing_runs() {
    let docs = standing_docs();
    assert!(
        !docs.iter().any(|d| str_at(d, &["kind"]) == "ConfigMap"),
        "a standing cluster has no sweep ConfigMap"
    );
    let deployment = k8s(&docs, "Deployment", "hammer-coordinator");
    let container = only_container(deployment);
    let args: Vec<String> = strings(at(container, &["args"]), "args")
        .into_iter()
        .map(
            |a| match a.strip_prefix("$(").and_then(|a| a.strip_suffix(')')) {
                Some(name) => env_value(container, name),
                None => a,
            },
        )
        .collect();
    check_args("kubernetes-standing coordinator", &args);
    assert!(flag(&args, "--sweep").is_none(), "{args:?}");

    // Compose's standing coordinator, token files and all: the workers' and the users'
    // tokens, both items of the Secret the workers read.
    let compose = &yaml_docs("compose/standing.yaml")[0];
    let compose_args = interpolated(strings(
        at(compose, &["services", "coordinator", "command"]),
        "command",
    ));
    assert_eq!(args, compose_args);
    let secret_files: Vec<(String, String)> = {
        let volume = pod_volume(deployment, "token");
        let dir = mount_path(container, "token");
        at(volume, &["secret", "items"])
            .as_sequence()
            .expect("items")
            .iter()
            .map(|i| {
                (
                    str_at(i, &["key"]).to_owned(),
                    format!("{dir}/{}", str_at(i, &["path"])),
                )
            })
            .collect()
    };
    let file_of = |key: &str| {
        secret_files
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, f)| f.as_str())
            .unwrap_or_else(|| panic!("no {key} in {secret_files:?}"))
    };
    assert_eq!(
        required(&args, "--worker-token-file", "standing"),
        file_of("HAMMER_TOKEN")
    );
    assert_eq!(
        required(&args, "--user-token-file", "standing"),
        file_of("HAMMER_USER_TOKEN")
    );
    let worker = k8s(&docs, "Deployment", "hammer-worker");
    let worker_args = strings(at(only_container(worker), &["args"]), "args");
    assert_eq!(
        token_source(worker, &worker_args).1,
        "HAMMER_TOKEN",
        "the workers' token"
    );

    // kustomize itself, where it is installed, renders the same objects.
    let rendered = Command::new("kubectl")
        .args(["kustomize"])
        .arg(deploy_dir().join("kubernetes-standing"))
        .output();
    match rendered {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8(out.stdout).expect("UTF-8");
            let rendered: Vec<Value> = serde_yaml_ng::Deserializer::from_str(&text)
                .map(|d| serde::Deserialize::deserialize(d).expect("kustomize's YAML"))
                .collect();
            assert_eq!(rendered.len(), docs.len(), "the same objects");
            for name in ["hammer-coordinator", "hammer-worker"] {
                let ours = k8s(&docs, "Deployment", name);
                let theirs = k8s(&rendered, "Deployment", name);
                assert_eq!(
                    at(theirs, &["spec", "template", "spec"]),
                    at(ours, &["spec", "template", "spec"]),
                    "{name} as kustomize renders it"
                );
            }
        }
        _ => println!("kubectl kustomize is not available: the patches were applied here only"),
    }
}

#[test]
fn systemd_units_pass_systemd_analyze_verify() {
    let available = Command::new("systemd-analyze")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        assert!(
            std::env::var("HAMMER_REQUIRE_SYSTEMD").as_deref() != Ok("1"),
            "HAMMER_REQUIRE_SYSTEMD=1 but systemd-analyze is not installed"
        );
        println!("SKIPPED: systemd-analyze is not installed");
        return;
    }
    // A root where the units' paths exist: the binary at /usr/local/bin/hammer (as the
    // units' install steps put it) and the system's own units, which verify loads for
    // the default dependencies (sysinit.target and the rest).
    let root = tempfile::tempdir().expect("temp dir");
    let bin = root.path().join("usr/local/bin");
    let units = root.path().join("etc/systemd/system");
    std::fs::create_dir_all(&bin).expect("mkdir");
    std::fs::create_dir_all(&units).expect("mkdir");
    std::fs::copy(support::HAMMER, bin.join("hammer")).expect("copy hammer");
    let system_units = ["/usr/lib/systemd/system", "/lib/systemd/system"]
        .into_iter()
        .find(|d| std::path::Path::new(d).join("sysinit.target").exists())
        .expect("the system's units");
    let lib = root.path().join("usr/lib/systemd");
    std::fs::create_dir_all(&lib).expect("mkdir");
    // A copy, not a link: verify resolves links inside the root (900 kB on Debian 12).
    let copied = Command::new("cp")
        .arg("-a")
        .arg(system_units)
        .arg(lib.join("system"))
        .status()
        .expect("run cp");
    assert!(copied.success(), "cp -a {system_units}");
    let mut paths = Vec::new();
    for unit in ["hammer-coordinator.service", "hammer-worker.service"] {
        let path = units.join(unit);
        std::fs::write(&path, read(&format!("systemd/{unit}"))).expect("copy unit");
        paths.push(path);
    }
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(format!("--root={}", root.path().display()))
        .args(&paths)
        .output()
        .expect("run systemd-analyze");
    let stderr = String::from_utf8_lossy(&out.stderr);
    // verify exits 0 on unknown keys but prints them: any output is a finding.
    assert!(
        out.status.success() && stderr.trim().is_empty(),
        "systemd-analyze verify: exit {:?}\n{stderr}{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout)
    );
}
