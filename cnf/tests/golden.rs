//! The generators' procedures are contracts: instances written into sweeps and datasets
//! must be the same instances forever. These tests check the code against the procedure
//! as documented (rewritten here from the documentation alone) and pin digests of what
//! it generates, so that any change shows.

use hammer_cnf::{Cnf, Digest, KSat, Signs, dimacs, shuffle};
use hammer_puzzle::seeded;

/// The k-SAT procedure of `hammer_cnf::ksat`'s documentation, step by step.
fn ksat_as_documented(k: u32, vars: u32, ratio: f64, seed: u64, index: u64) -> Vec<Vec<i32>> {
    let mut rng = seeded::stream(seed, "ksat", index);
    let m = (ratio * f64::from(vars)).round() as usize;
    let mut clauses = Vec::new();
    for _ in 0..m {
        let mut clause: Vec<i32> = Vec::new();
        for _ in 0..k {
            let mut v;
            loop {
                v = 1 + seeded::bounded(&mut rng, vars);
                if clause.iter().all(|l| l.unsigned_abs() != v) {
                    break;
                }
            }
            let s = seeded::bounded(&mut rng, 2);
            clause.push(if s == 1 { -(v as i32) } else { v as i32 });
        }
        clauses.push(clause);
    }
    clauses
}

/// The shuffle procedure of `hammer_cnf::shuffle`'s documentation, step by step.
fn shuffle_as_documented(cnf: &Cnf, seed: u64, index: u64, flip: bool) -> Vec<Vec<i32>> {
    let mut rng = seeded::stream(seed, "cnf-shuffle", index);
    fn fisher_yates<T>(rng: &mut rand_chacha::ChaCha20Rng, a: &mut [T]) {
        for i in (1..a.len()).rev() {
            let j = seeded::bounded(rng, i as u32 + 1) as usize;
            a.swap(i, j);
        }
    }
    let mut names: Vec<i32> = (1..=cnf.vars() as i32).collect();
    fisher_yates(&mut rng, &mut names);
    let mut negated = vec![false; names.len()];
    if flip {
        for n in &mut negated {
            *n = seeded::bounded(&mut rng, 2) == 1;
        }
    }
    let mut order: Vec<usize> = (0..cnf.num_clauses()).collect();
    fisher_yates(&mut rng, &mut order);
    let mut out = Vec::new();
    for &i in &order {
        let mut clause: Vec<i32> = cnf
            .clause(i)
            .expect("in range")
            .iter()
            .map(|&lit| {
                let v = lit.unsigned_abs() as usize;
                let sign = if lit < 0 { -1 } else { 1 };
                let flip = if negated[v - 1] { -1 } else { 1 };
                sign * flip * names[v - 1]
            })
            .collect();
        fisher_yates(&mut rng, &mut clause);
        out.push(clause);
    }
    out
}

fn clauses_of(cnf: &Cnf) -> Vec<Vec<i32>> {
    cnf.clauses().map(<[i32]>::to_vec).collect()
}

#[test]
fn ksat_follows_its_documented_procedure() {
    for (k, vars, ratio, seed, index) in [
        (3, 50, 4.26, 42, 0),
        (3, 50, 4.26, 42, 1),
        (3, 7, 4.0, 1, 99),
        (2, 2, 3.0, 0, 0),
        (5, 40, 21.1, u64::MAX, seeded::MAX_INDEX),
        (1, 10, 0.5, 3, 3),
    ] {
        let cnf = KSat::with_ratio(k, u64::from(vars), ratio)
            .expect("valid")
            .generate(seed, index)
            .expect("generated");
        assert_eq!(
            clauses_of(&cnf),
            ksat_as_documented(k, vars, ratio, seed, index),
            "k={k} vars={vars} ratio={ratio} seed={seed} index={index}"
        );
    }
}

#[test]
fn shuffle_follows_its_documented_procedure() {
    let cnf = KSat::with_ratio(3, 40, 4.2)
        .expect("valid")
        .generate(8, 2)
        .expect("generated");
    for (signs, flip) in [(Signs::Keep, false), (Signs::Flip, true)] {
        for index in [0, 5] {
            let (shuffled, _) = shuffle(&cnf, 11, index, signs).expect("shuffled");
            assert_eq!(
                clauses_of(&shuffled),
                shuffle_as_documented(&cnf, 11, index, flip)
            );
        }
    }
}

#[test]
fn a_ratio_sweep_of_one_index_is_nested() {
    let small = KSat::with_ratio(3, 60, 3.8)
        .expect("valid")
        .generate(5, 4)
        .expect("ok");
    let large = KSat::with_ratio(3, 60, 4.6)
        .expect("valid")
        .generate(5, 4)
        .expect("ok");
    let (small, large) = (clauses_of(&small), clauses_of(&large));
    assert_eq!(small.len(), 228);
    assert_eq!(large.len(), 276);
    assert_eq!(small[..], large[..small.len()]);
}

fn digest_of(cnf: &Cnf) -> String {
    Digest::of_bytes(&dimacs::to_bytes(cnf)).to_hex()
}

#[test]
fn generated_instances_never_change() {
    let ksat = KSat::with_ratio(3, 50, 4.26).expect("valid");
    let first = ksat.generate(42, 0).expect("generated");
    let text = dimacs::to_bytes(&first);
    assert!(text.starts_with(b"p cnf 50 213\n16 4 -13 0\n-43 24 36 0\n"));
    assert_eq!(
        digest_of(&first),
        "8975532ea0e98a41c5012612b5247e96630d2fd51d5ab778928c18de85b24713"
    );
    // All of 100 instances: the digest of their hex digests in order.
    let mut all = String::new();
    for index in 0..100 {
        all.push_str(&digest_of(&ksat.generate(42, index).expect("generated")));
    }
    assert_eq!(
        Digest::of_bytes(all.as_bytes()).to_hex(),
        "89bae4a6e8934841a20497dec741a18297763d4eb601aa0c958c8e4d97e0c20b"
    );
    let wide = KSat::with_ratio(7, 1000, 88.0)
        .expect("valid")
        .generate(1, 12345)
        .expect("generated");
    assert_eq!(
        digest_of(&wide),
        "3c0b550de95499badc6cf11708fc833bce481ee8d1eb0c36f56f6d3739229b3b"
    );
}

#[test]
fn shuffles_never_change() {
    let first = KSat::with_ratio(3, 50, 4.26)
        .expect("valid")
        .generate(42, 0)
        .expect("generated");
    let (flipped, _) = shuffle(&first, 7, 3, Signs::Flip).expect("shuffled");
    assert_eq!(
        digest_of(&flipped),
        "b59746c697692692c486be805973a7cb7360651ca84af5851eaf2a646309ffcc"
    );
    let (kept, _) = shuffle(&first, 7, 3, Signs::Keep).expect("shuffled");
    assert_eq!(
        digest_of(&kept),
        "a761689a3cddba9a25bee8577e71db328774a29e721a0e7eca07405e5affdb3c"
    );
}
