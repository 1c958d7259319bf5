package btcpp_test

// The speed of a Go leaf's port reads (Call.Int, Float, String), by the
// kind of the port's value: a literal, a {key} reference, a default.
//
//	go test -run '^$' -bench 'PortRead|PortTick' -benchmem ./btcpp/

import (
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/btcpp"
)

// portXML is a Sequence of five leaves, each reading one port: an int
// literal, a double literal, a string literal, a {key} int entry and an
// int port's default.
const portXML = `<root BTCPP_format="4"><BehaviorTree ID="M">
  <Sequence>
    <ReadInt x="42"/>
    <ReadFloat x="2.5"/>
    <ReadString x="hello"/>
    <ReadInt x="{k}"/>
    <ReadInt/>
  </Sequence>
</BehaviorTree></root>`

// portFactory registers the leaves of portXML: each reads its port reps()
// times (once in a tick of the tree) and fails if a read does.
func portFactory(tb testing.TB, reps func() int) *btcpp.Factory {
	f := btcpp.NewFactory()
	reg := func(id, typ, def string, read func(c *btcpp.Call) error) {
		err := f.RegisterSync(id, func(c *btcpp.Call) (btcpp.Status, error) {
			for i, n := 0, reps(); i < n; i++ {
				if err := read(c); err != nil {
					return btcpp.Failure, err
				}
			}
			return btcpp.Success, nil
		}, btcpp.InputPort("x", typ).WithDefault(def))
		if err != nil {
			tb.Fatal(err)
		}
	}
	reg("ReadInt", "int", "7", func(c *btcpp.Call) error { _, err := c.Int("x"); return err })
	reg("ReadFloat", "double", "1.5", func(c *btcpp.Call) error { _, err := c.Float("x"); return err })
	reg("ReadString", "string", "s", func(c *btcpp.Call) error { _, err := c.String("x"); return err })
	return f
}

// BenchmarkPortRead is one read by a leaf of its port: the leaf ticked
// once reads it b.N times.
func BenchmarkPortRead(b *testing.B) {
	for _, bc := range []struct{ name, leaf string }{
		{"int", `<ReadInt x="42"/>`},
		{"double", `<ReadFloat x="2.5"/>`},
		{"string", `<ReadString x="hello"/>`},
		{"ref", `<ReadInt x="{k}"/>`},
		{"default", `<ReadInt/>`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			f := portFactory(b, func() int { return b.N })
			tr := buildXML(b, f, `<root BTCPP_format="4"><BehaviorTree ID="M">`+bc.leaf+`</BehaviorTree></root>`, btcpp.WithEntry("k", 5))
			b.ReportAllocs()
			b.ResetTimer()
			_, res, err := tr.Tick()
			if err != nil || res != btcpp.Success {
				b.Fatal(res, err)
			}
		})
	}
}

// BenchmarkPortTick is one tick of portXML, each leaf reading its port
// once.
func BenchmarkPortTick(b *testing.B) {
	f := portFactory(b, func() int { return 1 })
	tr := buildXML(b, f, portXML, btcpp.WithEntry("k", 5))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next, res, err := tr.Tick()
		if err != nil || res != btcpp.Success {
			b.Fatal(res, err)
		}
		tr = next
	}
}

// BenchmarkPortBuild builds a tree of 201 nodes: a Sequence of 40 copies
// of portXML's leaves, whose ports are planned at build.
func BenchmarkPortBuild(b *testing.B) {
	leaves := `<ReadInt x="42"/><ReadFloat x="2.5"/><ReadString x="hello"/><ReadInt x="{k}"/><ReadInt/>`
	src := `<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence>` + strings.Repeat(leaves, 40) + `</Sequence></BehaviorTree></root>`
	doc, err := portFactory(b, func() int { return 1 }).Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := doc.Build("", btcpp.WithEntry("k", 5)); err != nil {
			b.Fatal(err)
		}
	}
}
