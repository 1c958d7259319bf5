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

func ExampleFeed_PublishWith() {
	m := viewer.NewMonitor(viewer.MonitorOptions{})
	feed := viewer.NewTreeFeed[string](m, "gunner")
	srv := httptest.NewServer(m)
	defer srv.Close()

	tree := bt.Start(bt.Sequence(bt.Leaf("aim"), bt.Leaf("fire")))
	// A 3x2 board: a ship of two cells (o), then a shot that hit it (x),
	// outlined as the last shot.
	if err := feed.PublishWith(tree, viewer.World{Grid: &viewer.Grid{Cols: 3, Rows: 2, Cells: "oo....", Last: -1}}); err != nil {
		fmt.Println(err)
	}
	tree = tree.Succeed()
	if err := feed.PublishWith(tree, viewer.World{
		Events: []string{"fire at A1: hit"},
		Grid:   &viewer.Grid{Cols: 3, Rows: 2, Cells: "xo....", Last: 0},
	}); err != nil {
		fmt.Println(err)
	}
	feed.End("the ship is hit") // the page says the game ended
	feed.Close()                // and that the feed is done

	// A grid whose cells do not fill it is refused.
	err := feed.PublishWith(tree, viewer.World{Grid: &viewer.Grid{Cols: 3, Rows: 2, Cells: "x", Last: 0}})
	fmt.Println(err)
	fmt.Println(feed.Len())
	// Output:
	// viewer.Feed.PublishWith: feed "gunner": a 3x2 grid has 1 cells, want 6
	// 2
}
