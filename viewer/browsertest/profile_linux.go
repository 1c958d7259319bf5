package browsertest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// ownGroup makes cmd start in a process group of its own, whose id is
// then the browser's pid, so that every helper process Chromium forks can
// be found and ended; and, as chromedp does by default, kills the browser
// if the test process dies.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = new(syscall.SysProcAttr)
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

// endGroup kills every process of group pgid and waits, up to limit, until
// none of them is alive. A zombie counts as gone: it holds no files, and
// the machine's init may never reap it.
func endGroup(pgid int, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		live := liveInGroup(pgid)
		if len(live) == 0 {
			return nil
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		if time.Now().After(deadline) {
			return fmt.Errorf("the browser's processes %v (group %d) are still alive after %v", live, pgid, limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// liveInGroup lists the processes of group pgid that are not zombies, from
// /proc/PID/stat: "pid (comm) state ppid pgrp ...", where comm may hold
// spaces and parentheses, so the fields are read after its last ')'.
func liveInGroup(pgid int) []int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var live []int
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // the process ended meanwhile
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(b[i+1:])
		if len(f) < 3 || string(f[0]) == "Z" || string(f[0]) == "X" {
			continue
		}
		if g, err := strconv.Atoi(string(f[2])); err == nil && g == pgid {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			live = append(live, pid)
		}
	}
	return live
}
