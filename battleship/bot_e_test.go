package battleship

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// viewOf builds a View of the fleet from rows of ".oX#" characters; sunk
// lists the ships already sunk.
func viewOf(fleet []int, sunk []int, rows ...string) *View {
	v := view(rows...)
	v.fleet = fleet
	v.sunk = make([]bool, len(fleet))
	for _, s := range sunk {
		v.sunk[s] = true
	}
	return v
}

// ticksOf shows ticks as "intent:signal", the shot's as its intent alone.
func ticksOf(ticks []Tick) string {
	var parts []string
	for _, k := range ticks {
		if k.Signal == bt.Running {
			parts = append(parts, string(k.Intent))
		} else {
			parts = append(parts, string(k.Intent)+":"+k.Signal.String())
		}
	}
	return strings.Join(parts, " ")
}

// TestTreeE checks E's tree against its documented shape.
func TestTreeE(t *testing.T) {
	var kinds []string
	for n := range TreeE.Preorder() {
		k := n.Kind().String()
		for _, a := range n.Attrs() {
			k += "/" + a.Kind.String()
		}
		kinds = append(kinds, k)
	}
	if got := strings.Join(kinds, " "); got != "root select leaf/while sequence condition leaf select sequence condition leaf leaf" {
		t.Errorf("kinds %s", got)
	}
	if s, ok := bot("E", 1).Stepped(); !ok || len(s.Picture().Nodes) != 11 {
		t.Errorf("E's stepped tree: %v, %d nodes", ok, len(s.Picture().Nodes))
	}
	if _, ok := bot("D", 1).Stepped(); ok {
		t.Error("D has a stepped tree")
	}
}

// TestTargetingE walks E through a first hit, targeting, a sink with a
// collateral hit beside it, and back to hunting.
func TestTargetingE(t *testing.T) {
	fleet := []int{3, 2}
	e := bot("E", 1)
	var ticks []Tick
	// A first hit: no target yet, so the open hit is taken as the target
	// and targeted in the next step.
	shot, err := e.decide(viewOf(fleet, nil, "......", "..X...", "......", "......"), &ticks)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ticksOf(ticks), "target_afloat:failure open_hit:success take_target:success target_afloat:success target"; got != want {
		t.Errorf("first hit: ticks %s, want %s", got, want)
	}
	if abs(shot.X-2)+abs(shot.Y-1) != 1 || e.Intent() != target || targetOf(e) != (Point{2, 1}) {
		t.Errorf("first hit: shot %v, intent %q, anchor %v", shot, e.Intent(), targetOf(e))
	}
	// Still afloat: targeting goes on.
	ticks = nil
	if _, err = e.decide(viewOf(fleet, nil, "......", "..Xo..", "......", "......"), &ticks); err != nil {
		t.Fatal(err)
	}
	if got := ticksOf(ticks); got != "target_afloat:success target" {
		t.Errorf("afloat: ticks %s", got)
	}
	// The target sank, with a collateral hit below it: the guard aborts
	// targeting, the collateral hit becomes the target, before any hunt.
	ticks = nil
	shot, err = e.decide(viewOf(fleet, []int{0}, "..#...", "..#o..", "..#...", "...X.."), &ticks)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ticksOf(ticks), "target_afloat:failure open_hit:success take_target:success target_afloat:success target"; got != want {
		t.Errorf("collateral: ticks %s, want %s", got, want)
	}
	if abs(shot.X-3)+abs(shot.Y-3) != 1 || targetOf(e) != (Point{3, 3}) {
		t.Errorf("collateral: shot %v, anchor %v; want next to D4", shot, targetOf(e))
	}
	// Nothing open: hunting, on parity while the shortest ship afloat is 2.
	ticks = nil
	if _, err = e.decide(viewOf([]int{3, 2, 2}, []int{0, 1}, "..#...", "..#o..", "..#...", "..##.."), &ticks); err != nil {
		t.Fatal(err)
	}
	if got := ticksOf(ticks); got != "target_afloat:failure open_hit:failure parity_pays:success hunt_parity" {
		t.Errorf("hunting: ticks %s", got)
	}
	// Ships of length 1 afloat: parity does not pay.
	ticks = nil
	if _, err = e.decide(viewOf([]int{1}, nil, "..o", "...", "..."), &ticks); err != nil {
		t.Fatal(err)
	}
	if got := ticksOf(ticks); got != "target_afloat:failure open_hit:failure parity_pays:failure hunt_density" {
		t.Errorf("hunting length 1: ticks %s", got)
	}
}

// TestPlannerTarget checks the configurations E's target counts.
func TestPlannerTarget(t *testing.T) {
	tests := []struct {
		name  string
		fleet []int
		rows  []string
		want  []Point // equally likely
	}{
		// Only a 3 can explain the two hits at the miss: it ends at A1.
		{"blocked end", []int{3}, []string{".XXo.", ".....", "....."}, []Point{{0, 0}}},
		// A 2 on both hits would have sunk: the 3 covers them, and A1 is
		// off the board's left, so C1 is the only cell.
		{"not wholly on hits", []int{3, 2}, []string{"XX...", "o....", "....."}, []Point{{2, 0}}},
		// A hit whose row is blocked: the ship is vertical, and covers B3
		// and B4 whichever way it lies.
		{"vertical", []int{4}, []string{".....", "oXo..", ".....", ".....", "....."}, []Point{{1, 2}, {1, 3}}},
	}
	for _, tc := range tests {
		var p planner
		v := viewOf(tc.fleet, nil, tc.rows...)
		p.load(v)
		var rng rand.PCG
		got, ok := p.target(&rng)
		if !ok || !slices.Contains(tc.want, got) {
			t.Errorf("%s: %v %v, want %v", tc.name, got, ok, tc.want)
		}
		if len(tc.fleet) == 1 { // the last ship afloat: the exact search
			if len(p.end.cells) == 0 {
				t.Errorf("%s: the last ship's search did not run", tc.name)
			}
		} else if p.weight == 0 {
			t.Errorf("%s: no configuration found", tc.name)
		}
	}
}

// TestLastShip checks the expected shots of the exact search for the last
// ship afloat.
func TestLastShip(t *testing.T) {
	tests := []struct {
		name  string
		fleet []int
		rows  []string
		want  float64
	}{
		// Four neighbours, each as likely: 1, 2, 3 or 4 shots.
		{"2 in open water", []int{2}, []string{".....", ".....", "..X..", ".....", "....."}, 2.5},
		// One placement left: its one cell not hit.
		{"one placement", []int{3}, []string{"XX.", "o..", "..."}, 1},
		// Three placements of the 4 along the row, B1-E1, C1-F1 and
		// D1-G1, each as likely. F1 first: a hit (2/3) leaves C1 or G1,
		// 1 or 2 more shots; a miss leaves B1 and C1, 2 more.
		{"4 in a row", []int{4}, []string{"o..XX...o", "ooooooooo"}, 1 + 2.0/3*1.5 + 1.0/3*2},
	}
	for _, tc := range tests {
		var p planner
		p.load(viewOf(tc.fleet, nil, tc.rows...))
		p.targetDensity()
		var rng rand.PCG
		if _, ok := p.lastShip(&rng); !ok {
			t.Errorf("%s: no shot", tc.name)
			continue
		}
		e := &p.end
		var h [2]uint64
		all := uint64(0)
		for j, c := range e.cells {
			if p.cells[c] == Hit {
				h[j/64] |= 1 << (j % 64)
			}
			all |= e.cover[j]
		}
		if got := e.value(all, h); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: %v shots, want %v", tc.name, got, tc.want)
		}
	}
}

// TestStuckSteppedBot: a stepped tree whose actions never fire is an
// error after maxTicks agent calls, and leaves the game unchanged.
func TestStuckSteppedBot(t *testing.T) {
	board, err := NewBoard(Config{Cols: 3, Rows: 3, Fleet: []int{2}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	plan := &steppedPlan{
		def:       bt.Root(bt.Select(bt.Leaf(huntDensity), bt.Leaf(target))),
		action:    func(*stepContext, Intent) bt.Status { return bt.Failure },
		condition: func(*stepContext, Intent) bool { return false },
		doing:     func(*Bot) string { return "" },
	}
	stuck := strategy{name: "S", stepped: plan}
	g := NewGame(board, stuck.start(1))
	start := g.Bot()
	want := "battleship: bot S at turn 1: no shot named in 64 ticks (the tree is FAILED)"
	if _, err := g.PlayTurn(); err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if len(g.Turns()) != 0 || g.Shots() != 0 || g.Bot() != start || len(g.ticks) != 0 {
		t.Error("the failed turn changed the game")
	}
}

// targetOf returns the hit E remembers targeting, or (-1,-1) for none.
func targetOf(e Bot) Point {
	if t, ok := targetKey.Get(e.steps.Memory()); ok {
		return t
	}
	return Point{-1, -1}
}
