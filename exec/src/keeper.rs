//! The keeper: the direct child of the caller, which forks the program and stays to watch
//! it, so that the whole group dies with the caller.
//!
//! A death signal (`PR_SET_PDEATHSIG`) reaches only the direct child of the process that
//! dies, and a program's own children do not inherit it. So the caller's direct child is
//! not the program but a keeper, the leader of the program's process group, doing only
//! this:
//!
//! - it asks for SIGTERM when the caller dies, and forks the program, which goes on to exec;
//! - it closes every file it holds, so that the pipes end with the program and `spawn`
//!   sees the program's exec, not the keeper;
//! - it waits for signals: on SIGCHLD it reaps the program and ends the way the program
//!   ended (the same exit code, or the same signal), so the caller's `wait4` reports the
//!   program's ending and, since the keeper reaped it, its resource usage too; on SIGTERM
//!   whose cause is the caller's death (its parent changed), it sends SIGKILL to the group.
//!   A SIGTERM from the caller's own limit enforcement reaches the program directly, as a
//!   member of the group, and the keeper goes on waiting.
//!
//! It runs between fork and exec in a process that had many threads, so it calls only
//! async-signal-safe functions, allocates nothing, and never returns to Rust code in the
//! keeper itself.

/// Runs in the forked child, before exec. Returns in the program (which then execs);
/// never returns in the keeper. `caller` is the pid of the process that spawned it.
///
/// # Safety
/// Must be called only between fork and exec (from `CommandExt::pre_exec`).
pub(crate) unsafe fn split(caller: u32) -> std::io::Result<()> {
    // SAFETY (all blocks below): only async-signal-safe calls on stack values, in the
    // single-threaded child between fork and exec.
    unsafe {
        let mut watched: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut watched);
        libc::sigaddset(&mut watched, libc::SIGCHLD);
        libc::sigaddset(&mut watched, libc::SIGTERM);
        // Blocked before the fork, so that no SIGCHLD or SIGTERM is lost before the wait.
        let mut before: libc::sigset_t = std::mem::zeroed();
        if libc::sigprocmask(libc::SIG_BLOCK, &watched, &mut before) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::getppid() as u32 != caller {
            libc::_exit(1);
        }
        let program = libc::fork();
        if program < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if program == 0 {
            // The program: the caller's signal mask back, no death signal of its own
            // (the keeper kills the group), then exec.
            libc::sigprocmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
            return Ok(());
        }
        keep(program, caller, &watched)
    }
}

/// The keeper's life: wait for the program's end or the caller's death.
unsafe fn keep(program: libc::pid_t, caller: u32, watched: &libc::sigset_t) -> ! {
    // SAFETY: as in `split`.
    unsafe {
        if libc::close_range(0, u32::MAX, 0) != 0 {
            for fd in 0..1024 {
                libc::close(fd);
            }
        }
        loop {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let signal = libc::sigwaitinfo(watched, &mut info);
            if signal == libc::SIGTERM && libc::getppid() as u32 != caller {
                libc::kill(0, libc::SIGKILL);
                libc::_exit(137);
            }
            if signal != libc::SIGCHLD {
                continue;
            }
            let mut status = 0;
            if libc::waitpid(program, &mut status, libc::WNOHANG) != program {
                continue;
            }
            if libc::WIFSIGNALED(status) {
                end_by(libc::WTERMSIG(status));
            }
            libc::_exit(libc::WEXITSTATUS(status));
        }
    }
}

/// Ends the keeper by `signal`, as the program ended.
unsafe fn end_by(signal: libc::c_int) -> ! {
    // SAFETY: as in `split`.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        let mut only: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut only);
        libc::sigaddset(&mut only, signal);
        libc::sigprocmask(libc::SIG_UNBLOCK, &only, std::ptr::null_mut());
        libc::kill(libc::getpid(), signal);
        // A signal whose default is to be ignored or to stop: end with its number.
        libc::_exit(128 + signal);
    }
}
