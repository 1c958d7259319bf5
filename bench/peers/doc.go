// Package peers is a benchmark-only module that measures this library side by
// side with its peers, so that figures can be compared by name in one
// "go test -bench" run.
//
// It is a separate module (with a replace directive to the library) so that
// the library itself does not depend on any peer. It holds no code besides
// this comment; everything lives in the _test.go files:
//
//   - workload_test.go: the workloads, shared by every library's benchmarks
//     (the GoRight failure pattern of workload (a), the shape of the tree of
//     workload (b) and its deterministic 50/50 result stream);
//   - peers_test.go: github.com/joeycumines/go-behaviortree v1.11.0
//     (BenchmarkPeerStepA, BenchmarkPeerStepB, BenchmarkPeerFluentTick3) and
//     the tests that check the workloads do what they claim;
//   - ours_test.go: this library's stepped engine (BenchmarkStepA,
//     BenchmarkStepB, BenchmarkFluentTick3);
//   - shapes_test.go and entities_test.go: shapes described once without
//     reference to any library (a size sweep, wide nodes, an NPC, an action
//     30 levels deep, 10,000 entities), each as BenchmarkOurs<Shape>,
//     BenchmarkPeer<Shape> and BenchmarkFloor<Shape>, the floor being the
//     same agent calls replayed with no tree, and the tests that check ours
//     and the peer make the same calls with the same answers.
//
// See README.md for the command that reproduces the figures.
package peers
