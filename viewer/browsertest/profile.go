package browsertest

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// A profile is the user-data directory of one Chromium that a test
// starts: the test owns it, and removes it only after every process of
// the browser is gone. (testing.T.TempDir cannot be used: its cleanup
// removes the directory as soon as the main browser process has exited,
// while Chromium's helper processes may still be writing into it, and
// RemoveAll then fails with "directory not empty" about one run in two.)
type profile struct {
	dir string
}

func newProfile() (*profile, error) {
	dir, err := os.MkdirTemp("", "bt-browsertest-profile-")
	if err != nil {
		return nil, fmt.Errorf("making the browser's profile directory: %w", err)
	}
	return &profile{dir: dir}, nil
}

// remove removes the profile directory once the browser's process group
// pgid (0 if unknown) has no live process. It retries the removal for a
// while: a process outside the group may still be closing its files.
func (p *profile) remove(pgid int) error {
	var errs []error
	if pgid > 0 {
		if err := endGroup(pgid, 30*time.Second); err != nil {
			errs = append(errs, err)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := os.RemoveAll(p.dir)
		if err == nil {
			return errors.Join(errs...)
		}
		if time.Now().After(deadline) {
			return errors.Join(append(errs, fmt.Errorf("removing the browser's profile %s: %w", p.dir, err))...)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
