package behaviortree

// MaxSteppedNodes lends the limit of NewStepped to the package's external
// tests.
const MaxSteppedNodes = maxSteppedNodes
