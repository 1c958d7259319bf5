package viewer_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/viewer"
)

func ExampleMonitor() {
	m := viewer.NewMonitor(viewer.MonitorOptions{Title: "guards", Keep: 500})
	guard := viewer.NewTreeFeed[string](m, "guard 1")
	// A program serves it with an http.Server on "127.0.0.1:8080" whose
	// ReadHeaderTimeout and IdleTimeout are set.
	srv := httptest.NewServer(m)
	defer srv.Close()

	patrol := bt.Sequence(bt.Leaf("walk"), bt.Leaf("look"))
	tree := bt.Start(patrol)
	guard.Publish(tree)
	for i := 0; i < 3; i++ {
		tree = tree.Succeed()
		guard.Publish(tree) // every step: no allocation when no page watches
	}

	resp, err := http.Get(srv.URL + "/trees")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	io.Copy(os.Stdout, resp.Body)
	// Output:
	// [{"id":0,"name":"guard 1","versions":4,"kept":4}]
}
