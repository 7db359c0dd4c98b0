//! Compiles `hammer/v1/hammer.proto` with protox (pure Rust), because the build machines
//! have no `protoc`. The file descriptor set is also written out for gRPC reflection.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=hammer/v1/hammer.proto");
    let fds = protox::compile(["hammer/v1/hammer.proto"], ["."])?;
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out.join("hammer_v1_descriptor.bin"),
        prost::Message::encode_to_vec(&fds),
    )?;
    tonic_prost_build::configure().compile_fds(fds)?;
    Ok(())
}
