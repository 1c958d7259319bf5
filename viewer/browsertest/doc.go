// Package browsertest holds the test that opens the pages of package
// viewer in a real browser, headless Chromium driven by
// github.com/chromedp/chromedp. It is a module of its own, so that the
// library keeps its two dependencies. Run it with
//
//	cd viewer/browsertest && go test ./...
//
// It looks for Chromium at $CHROMIUM, /usr/bin/chromium or on the PATH
// (Debian: apt-get install chromium). Where Chromium cannot be started the
// test skips with a message saying why, except when CI=true, where it
// fails. It writes its screenshots to $BT_ARTIFACTS, or to artifacts/ here.
package browsertest
