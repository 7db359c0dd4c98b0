//! The files in `deploy/` are checked against the real program:
//!
//! - every YAML file parses;
//! - every `hammer` command line in the Compose file, the Kubernetes manifests, the
//!   systemd units and the Slurm script is accepted by the real argument parser (the
//!   hidden `hammer check-args -- ARGS...`);
//! - ports, URLs, paths and the token variable agree between the coordinator and its
//!   workers (and the Service, the probes, the volumes, the image);
//! - the Slurm script runs a real sweep, with stand-ins for `srun` and `scontrol` that
//!   start the tasks on this machine.

mod deploy_files;
mod support;

use std::collections::BTreeMap;
use std::process::Command;
use std::time::Duration;

use deploy_files::*;
use hammer_sweep::Sweep;
use serde_yaml_ng::Value;
use support::{HAMMER, Proc, free_port, read_checked};

#[test]
fn every_yaml_file_in_deploy_parses() {
    let mut found = 0;
    let mut stack = vec![deploy_dir()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read deploy/") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                let relative = path
                    .strip_prefix(deploy_dir())
                    .expect("under deploy/")
                    .to_str()
                    .expect("utf-8 path")
                    .to_owned();
                assert!(!yaml_docs(&relative).is_empty(), "{relative} is empty");
                found += 1;
            }
        }
    }
    assert!(found >= 7, "only {found} YAML files found under deploy/");
}

/// `args` with each `$(NAME)` replaced by the value the container's `env` gives NAME, as
/// Kubernetes expands them; a name without a value is an error.
fn expanded(args: Vec<String>, container: &Value) -> Vec<String> {
    let env = at(container, &["env"]).as_sequence().expect("env list");
    args.into_iter()
        .map(
            |arg| match arg.strip_prefix("$(").and_then(|a| a.strip_suffix(')')) {
                Some(name) => env
                    .iter()
                    .find(|e| e.get("name").and_then(Value::as_str) == Some(name))
                    .and_then(|e| e.get("value").and_then(Value::as_str))
                    .unwrap_or_else(|| panic!("$({name}) has no value in the container's env"))
                    .to_owned(),
                None => arg,
            },
        )
        .collect()
}

#[test]
fn compose_commands_parse_and_agree() {
    let docs = yaml_docs("compose/compose.yaml");
    let compose = &docs[0];
    let coordinator = at(compose, &["services", "coordinator"]);
    let worker = at(compose, &["services", "worker"]);

    let c_args = interpolated(strings(
        at(coordinator, &["command"]),
        "coordinator.command",
    ));
    check_args("compose coordinator", &c_args);
    let w_args = interpolated(strings(at(worker, &["command"]), "worker.command"));
    check_args("compose worker", &w_args);

    // The health check runs the image's binary: /hammer health ...
    let test = strings(
        at(coordinator, &["healthcheck", "test"]),
        "healthcheck.test",
    );
    assert_eq!(test[..2], ["CMD".to_owned(), "/hammer".to_owned()]);
    check_args("compose healthcheck", &test[2..]);
    assert_eq!(test[2], "health");

    let listen = required(&c_args, "--listen", "compose coordinator");
    let port = addr_port(listen);
    assert_eq!(port, GRPC_PORT);
    let (host, worker_port) = url_host_port(required(&w_args, "--coordinator", "worker"));
    assert_eq!(
        host, "coordinator",
        "workers reach the coordinator by its service name"
    );
    assert_eq!(
        worker_port, port,
        "worker URL port = coordinator --listen port"
    );
    // Gangs: each worker listens for its peers on every interface and is reached at its
    // container's host name (the default), which Docker's DNS resolves.
    let peer = required(&w_args, "--peer-listen", "compose worker");
    assert!(
        peer.parse::<std::net::SocketAddr>()
            .is_ok_and(|a| a.ip().is_unspecified()),
        "{peer}"
    );
    assert_eq!(addr_port(peer), PEER_PORT);
    assert_eq!(flag(&w_args, "--peer-advertise"), None);
    let (health_host, health_port) = url_host_port(required(&test, "--coordinator", "health"));
    assert_eq!((health_host.as_str(), health_port), ("127.0.0.1", port));
    let metrics_port = addr_port(required(&c_args, "--metrics", "compose coordinator"));
    assert_eq!(metrics_port, METRICS_PORT);
    let published = strings(at(coordinator, &["ports"]), "coordinator.ports");
    for port in [port, metrics_port] {
        assert!(
            published.iter().any(|p| p.ends_with(&format!(":{port}"))),
            "container port {port} not published: {published:?}"
        );
    }

    // The token: a Compose secret, a required file, read by both sides with --token-file.
    let secret_file = str_at(compose, &["secrets", "hammer_token", "file"]);
    assert!(
        secret_file.starts_with("${HAMMER_TOKEN_FILE:?"),
        "the token file must be required: {secret_file}"
    );
    assert!(
        !secret_file["${".len()..].contains('$'),
        "Compose would try to substitute a $ inside the message: {secret_file}"
    );
    for (name, service, args) in [
        ("coordinator", coordinator, &c_args),
        ("worker", worker, &w_args),
    ] {
        let secrets = strings(at(service, &["secrets"]), "secrets");
        assert_eq!(secrets, ["hammer_token"], "{name}");
        assert_eq!(
            required(args, "--token-file", name),
            "/run/secrets/hammer_token",
            "{name}"
        );
    }

    // State and dataset on the volume; the sweep file where --sweep says.
    let volumes = strings(at(coordinator, &["volumes"]), "coordinator.volumes");
    let data_mount = volumes
        .iter()
        .find_map(|v| v.strip_prefix("${HAMMER_DATA:-hammer-data}:"))
        .expect("the hammer-data volume is mounted");
    for name in ["--out", "--state"] {
        let dir = required(&c_args, name, "compose coordinator");
        assert!(
            dir.starts_with(&format!("{data_mount}/")),
            "{name} {dir} is not on the volume"
        );
    }
    let sweep = required(&c_args, "--sweep", "compose coordinator");
    assert!(
        volumes.iter().any(|v| v.contains(&format!(":{sweep}"))),
        "--sweep {sweep} is not mounted: {volumes:?}"
    );
    assert!(at(compose, &["volumes"]).get("hammer-data").is_some());
    assert_eq!(
        str_at(at(worker, &["depends_on", "coordinator"]), &["condition"]),
        "service_healthy"
    );
    // Both services use the image the Dockerfile builds.
    for service in [coordinator, worker] {
        assert_eq!(
            str_at(service, &["build", "dockerfile"]),
            "deploy/Dockerfile"
        );
        assert_eq!(str_at(service, &["image"]), "${HAMMER_IMAGE:-hammer:local}");
    }
}

#[test]
fn kubernetes_manifests_parse_and_agree() {
    let kustomization = &yaml_docs("kubernetes/kustomization.yaml")[0];
    let mut docs = Vec::new();
    for resource in strings(at(kustomization, &["resources"]), "resources") {
        docs.extend(yaml_docs(&format!("kubernetes/{resource}")));
    }
    let secret_example = &yaml_docs("kubernetes/secret.example.yaml")[0];

    let coordinator = k8s(&docs, "Deployment", "hammer-coordinator");
    let worker = k8s(&docs, "Deployment", "hammer-worker");
    let service = k8s(&docs, "Service", "hammer-coordinator");
    let pvc = k8s(&docs, "PersistentVolumeClaim", "hammer-data");
    let configmap = k8s(&docs, "ConfigMap", "hammer-sweep");
    assert_eq!(int_at(coordinator, &["spec", "replicas"]), 1);
    assert_eq!(
        str_at(coordinator, &["spec", "strategy", "type"]),
        "Recreate"
    );
    assert!(int_at(worker, &["spec", "replicas"]) >= 1);

    let cc = only_container(coordinator);
    let wc = only_container(worker);
    let c_args = expanded(strings(at(cc, &["args"]), "coordinator args"), cc);
    let w_args = expanded(strings(at(wc, &["args"]), "worker args"), wc);
    check_args("kubernetes coordinator", &c_args);
    check_args("kubernetes worker", &w_args);
    assert!(c_args.contains(&"--stay-after-complete".to_owned()));
    assert!(w_args.contains(&"--stay-after-complete".to_owned()));

    // Ports: --listen = containerPort = Service targetPort = probe port; the worker's
    // URL names the Service and its port.
    let port = u64::from(addr_port(required(&c_args, "--listen", "coordinator")));
    let metrics_port = u64::from(addr_port(required(&c_args, "--metrics", "coordinator")));
    assert_eq!(
        (port, metrics_port),
        (GRPC_PORT.into(), METRICS_PORT.into())
    );
    let container_ports: BTreeMap<String, u64> = at(cc, &["ports"])
        .as_sequence()
        .expect("ports")
        .iter()
        .map(|p| {
            (
                str_at(p, &["name"]).to_owned(),
                int_at(p, &["containerPort"]),
            )
        })
        .collect();
    assert_eq!(container_ports.get("grpc"), Some(&port));
    assert_eq!(container_ports.get("metrics"), Some(&metrics_port));
    let service_ports: BTreeMap<String, (u64, u64)> = at(service, &["spec", "ports"])
        .as_sequence()
        .expect("service ports")
        .iter()
        .map(|p| {
            (
                str_at(p, &["name"]).to_owned(),
                (int_at(p, &["port"]), int_at(p, &["targetPort"])),
            )
        })
        .collect();
    let (service_port, target) = service_ports["grpc"];
    assert_eq!(target, port);
    assert_eq!(service_ports["metrics"].1, metrics_port);
    let (host, url_port) = url_host_port(required(&w_args, "--coordinator", "worker"));
    assert_eq!(
        host, "hammer-coordinator",
        "the worker URL names the Service"
    );
    assert_eq!(u64::from(url_port), service_port);
    for probe in ["readinessProbe", "livenessProbe"] {
        assert_eq!(int_at(cc, &[probe, "grpc", "port"]), port, "{probe}");
        assert_eq!(
            str_at(cc, &[probe, "grpc", "service"]),
            "hammer.v1.Coordinator",
            "{probe} asks about the service the coordinator reports"
        );
    }
    let annotations = at(
        coordinator,
        &["spec", "template", "metadata", "annotations"],
    );
    assert_eq!(
        str_at(annotations, &["prometheus.io/port"]),
        metrics_port.to_string()
    );

    // The Service and the Deployments select their own pods.
    let c_labels = labels(at(coordinator, &["spec", "template", "metadata", "labels"]));
    let w_labels = labels(at(worker, &["spec", "template", "metadata", "labels"]));
    let selects = |selector: &Value, pod: &BTreeMap<String, String>| {
        labels(selector).iter().all(|(k, v)| pod.get(k) == Some(v))
    };
    assert!(selects(at(service, &["spec", "selector"]), &c_labels));
    assert!(!selects(at(service, &["spec", "selector"]), &w_labels));
    assert!(selects(
        at(coordinator, &["spec", "selector", "matchLabels"]),
        &c_labels
    ));
    assert!(selects(
        at(worker, &["spec", "selector", "matchLabels"]),
        &w_labels
    ));
    assert!(!selects(
        at(worker, &["spec", "selector", "matchLabels"]),
        &c_labels
    ));

    check_peers(&docs, worker, &w_args, &w_labels, &c_labels);

    // The token: the same Secret and key on both sides, the one the example creates,
    // read as a file; no token in the environment.
    let source = token_source(coordinator, &c_args);
    assert_eq!(token_source(worker, &w_args), source);
    assert_eq!(str_at(secret_example, &["metadata", "name"]), source.0);
    assert!(at(secret_example, &["stringData"]).get(&source.1).is_some());

    // The object store: both read the optional Secret that store-secret.example.yaml
    // makes, with the variables an S3 client reads.
    let store_example = &yaml_docs("kubernetes/store-secret.example.yaml")[0];
    let store_secret = str_at(store_example, &["metadata", "name"]);
    for c in [cc, wc] {
        let from = at(c, &["envFrom"]).as_sequence().expect("envFrom list");
        assert!(
            from.iter().any(|f| f
                .get("secretRef")
                .is_some_and(|r| str_at(r, &["name"]) == store_secret
                    && r.get("optional").and_then(Value::as_bool) == Some(true))),
            "the container reads the optional Secret {store_secret}"
        );
    }
    for key in [
        "AWS_ENDPOINT_URL",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
    ] {
        assert!(
            at(store_example, &["stringData"]).get(key).is_some(),
            "{key}"
        );
    }
    for c in [cc, wc] {
        let env = at(c, &["env"]).as_sequence().expect("env list");
        assert!(
            env.iter()
                .all(|e| e.get("name").and_then(Value::as_str) != Some(TOKEN_VAR)),
            "the token comes from --token-file, not {TOKEN_VAR}"
        );
    }

    // Resource requests on both.
    for c in [cc, wc] {
        assert!(at(c, &["resources", "requests"]).get("cpu").is_some());
        assert!(at(c, &["resources", "requests"]).get("memory").is_some());
    }

    // Volumes: the PVC holds --out and --state; the ConfigMap provides --sweep.
    let volumes = at(coordinator, &["spec", "template", "spec", "volumes"])
        .as_sequence()
        .expect("volumes");
    let mounts = at(cc, &["volumeMounts"]).as_sequence().expect("mounts");
    let mount_of = |volume: &Value| {
        let name = str_at(volume, &["name"]);
        mounts
            .iter()
            .find(|m| str_at(m, &["name"]) == name)
            .map(|m| str_at(m, &["mountPath"]).to_owned())
            .unwrap_or_else(|| panic!("volume {name} is not mounted"))
    };
    let pvc_volume = volumes
        .iter()
        .find(|v| v.get("persistentVolumeClaim").is_some())
        .expect("a PVC volume");
    assert_eq!(
        str_at(pvc_volume, &["persistentVolumeClaim", "claimName"]),
        str_at(pvc, &["metadata", "name"])
    );
    let data = mount_of(pvc_volume);
    for name in ["--out", "--state"] {
        let dir = required(&c_args, name, "coordinator");
        assert!(
            dir.starts_with(&format!("{data}/")),
            "{name} {dir} is not on the PVC"
        );
    }
    let cm_volume = volumes
        .iter()
        .find(|v| v.get("configMap").is_some())
        .expect("a ConfigMap volume");
    assert_eq!(
        str_at(cm_volume, &["configMap", "name"]),
        str_at(configmap, &["metadata", "name"])
    );
    let sweep_path = required(&c_args, "--sweep", "coordinator");
    let key = sweep_path
        .strip_prefix(&format!("{}/", mount_of(cm_volume)))
        .unwrap_or_else(|| panic!("--sweep {sweep_path} is not in the ConfigMap's mount"));
    let text = str_at(configmap, &["data", key]);
    let sweep = Sweep::parse(text, "the ConfigMap's sweep.toml")
        .unwrap_or_else(|e| panic!("the ConfigMap's sweep does not parse: {e}"));
    assert!(sweep.total_games() > 0);
}

/// Gangs on Kubernetes: each worker pod listens for its peers and advertises
/// POD.SERVICE:PORT, the name that the headless Service of its `subdomain` gives it.
fn check_peers(
    docs: &[Value],
    worker: &Value,
    w_args: &[String],
    w_labels: &BTreeMap<String, String>,
    c_labels: &BTreeMap<String, String>,
) {
    let peers = k8s(docs, "Service", "hammer-peers");
    assert_eq!(str_at(peers, &["spec", "clusterIP"]), "None", "headless");
    let selector = labels(at(peers, &["spec", "selector"]));
    assert!(selector.iter().all(|(k, v)| w_labels.get(k) == Some(v)));
    assert!(!selector.iter().all(|(k, v)| c_labels.get(k) == Some(v)));
    let pod = at(worker, &["spec", "template", "spec"]);
    assert_eq!(str_at(pod, &["subdomain"]), "hammer-peers");
    let listen = required(w_args, "--peer-listen", "kubernetes worker");
    assert_eq!(addr_port(listen), PEER_PORT);
    let advertise = required(w_args, "--peer-advertise", "kubernetes worker");
    assert_eq!(advertise, format!("$(POD_NAME).hammer-peers:{PEER_PORT}"));
    let container = only_container(worker);
    let env = at(container, &["env"]).as_sequence().expect("env list");
    let pod_name = env
        .iter()
        .find(|e| e.get("name").and_then(Value::as_str) == Some("POD_NAME"))
        .expect("POD_NAME in the worker's environment");
    assert_eq!(
        str_at(pod_name, &["valueFrom", "fieldRef", "fieldPath"]),
        "metadata.name"
    );
    let ports = at(peers, &["spec", "ports"]).as_sequence().expect("ports");
    assert!(
        ports
            .iter()
            .any(|p| int_at(p, &["targetPort"]) == u64::from(PEER_PORT)),
        "{ports:?}"
    );
    let container_ports = at(container, &["ports"]).as_sequence().expect("ports");
    assert!(
        container_ports
            .iter()
            .any(|p| int_at(p, &["containerPort"]) == u64::from(PEER_PORT))
    );
}

#[test]
fn systemd_units_parse_and_agree() {
    let env = env_file(&read("systemd/hammer.env.example"));
    assert!(env.contains_key(TOKEN_VAR));
    let coordinator = unit_service(&read("systemd/hammer-coordinator.service"));
    let worker = unit_service(&read("systemd/hammer-worker.service"));
    for unit in [&coordinator, &worker] {
        assert_eq!(unit["EnvironmentFile"], "/etc/hammer/hammer.env");
        assert_eq!(unit["Restart"], "on-failure");
    }
    let c = exec_start(&coordinator, &env);
    let w = exec_start(&worker, &env);
    assert_eq!(c[0], "/usr/local/bin/hammer");
    assert_eq!(w[0], "/usr/local/bin/hammer");
    check_args("systemd coordinator", &c[1..]);
    check_args("systemd worker", &w[1..]);
    let port = addr_port(required(&c, "--listen", "systemd coordinator"));
    assert_eq!(port, GRPC_PORT);
    let (_, url_port) = url_host_port(required(&w, "--coordinator", "systemd worker"));
    assert_eq!(
        url_port, port,
        "HAMMER_COORDINATOR's port = coordinator --listen port"
    );
    // The state and dataset are where the unit may write.
    let writable = &coordinator["ReadWritePaths"];
    for name in ["--out", "--state"] {
        let dir = required(&c, name, "systemd coordinator");
        assert!(
            dir.starts_with(&format!("{writable}/")),
            "{name} {dir} is read-only"
        );
    }
}

#[test]
fn the_dockerfile_pulls_only_the_rust_image_and_the_entrypoint_is_the_binary() {
    let text = read("Dockerfile");
    let froms: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("FROM "))
        .collect();
    assert_eq!(froms, ["rust:${RUST_VERSION}-bookworm AS build", "scratch"]);
    assert!(
        !text.contains("# syntax="),
        "a syntax line pulls a frontend image"
    );
    assert!(text.contains("ENTRYPOINT [\"/hammer\"]"));
    assert!(text.contains("crt-static"));
    // Without it, fontconfig and freetype (charts) would have to link statically.
    assert!(text.contains("-p hammer --no-default-features"));
    let expose = text
        .lines()
        .find_map(|l| l.strip_prefix("EXPOSE "))
        .expect("EXPOSE");
    assert_eq!(expose, format!("{GRPC_PORT} {METRICS_PORT}"));
    // Compose builds it from the repository root, which is where COPY . . expects.
    let compose = &yaml_docs("compose/compose.yaml")[0];
    assert_eq!(
        str_at(compose, &["services", "coordinator", "build", "context"]),
        "../.."
    );
}

const SLURM_SWEEP: &str = r#"
name = "slurm"
seed = 3

[[experiment]]
name = "small"
sizes = [4, 5]
games = 40
unit_games = 10
"#;

/// Runs deploy/slurm/hammer.sbatch with `srun` and `scontrol` replaced by scripts that
/// start every task on this machine: a three-node allocation becomes a coordinator and
/// two workers on loopback, and the sweep must end complete, every key once.
#[test]
fn the_slurm_script_runs_a_sweep_to_completion() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).expect("bin dir");
    let calls = dir.path().join("srun-calls.log");
    let script = |name: &str, text: &str| {
        let path = bin.join(name);
        std::fs::write(&path, text).expect("write stand-in");
        let status = Command::new("chmod")
            .args(["+x", path.to_str().expect("utf-8")])
            .status()
            .expect("chmod");
        assert!(status.success());
    };
    // Three "nodes", all this machine.
    script(
        "scontrol",
        "#!/bin/bash\n[ \"$1 $2\" = \"show hostnames\" ] || exit 1\nprintf '127.0.0.1\\n127.0.0.1\\n127.0.0.1\\n'\n",
    );
    // srun: record the call, skip the options (all written as --name=value), run the
    // command once per task.
    script(
        "srun",
        r#"#!/bin/bash
echo "srun $*" >> "$SRUN_CALLS"
ntasks=1
while [ $# -gt 0 ]; do
    case "$1" in
        --ntasks=*) ntasks=${1#--ntasks=} ;;
        -*) ;;
        *) break ;;
    esac
    shift
done
pids=()
for _ in $(seq 1 "$ntasks"); do "$@" & pids+=($!); done
status=0
for p in "${pids[@]}"; do wait "$p" || status=$?; done
exit $status
"#,
    );
    let sweep_path = dir.path().join("sweep.toml");
    std::fs::write(&sweep_path, SLURM_SWEEP).expect("write sweep");
    let data = dir.path().join("shared/run1");
    let port = free_port().to_string();
    let path_var = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut job = Proc::spawn(
        "sbatch job",
        "bash",
        &[
            deploy_dir()
                .join("slurm/hammer.sbatch")
                .display()
                .to_string(),
            sweep_path.display().to_string(),
            data.display().to_string(),
        ],
        &[
            ("PATH", &path_var),
            ("HAMMER", HAMMER),
            ("HAMMER_PORT", &port),
            ("SLURM_JOB_NODELIST", "node[1-3]"),
            ("SRUN_CALLS", calls.to_str().expect("utf-8")),
        ],
        dir.path().join("job.log"),
    );
    job.wait_ok(Duration::from_secs(120));
    let log = job.log_text();
    assert!(log.contains("2 worker node(s)"), "{log}");
    assert!(log.contains("coordinator exited with 0"), "{log}");
    // The coordinator listened on a non-loopback address: only possible with the
    // token that the script made and passed on to the workers.
    assert!(
        log.contains(&format!("listening on http://0.0.0.0:{port}")),
        "{log}"
    );
    let calls = std::fs::read_to_string(&calls).expect("srun calls");
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(calls.len(), 2, "{calls:?}");
    assert!(calls[0].contains(" coordinator --sweep "), "{}", calls[0]);
    assert!(calls[1].contains("--ntasks=2") && calls[1].contains(" worker --coordinator "));
    let sweep = Sweep::parse(SLURM_SWEEP, "test").expect("sweep");
    let rows = read_checked(&data.join("results"), &sweep);
    let workers: std::collections::BTreeSet<&str> =
        rows.iter().map(|r| r.worker.as_str()).collect();
    assert!(!workers.is_empty());
    assert!(data.join("state/journal.log").exists());
}
