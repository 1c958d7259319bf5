module github.com/zipbt/behaviortree/bench/peers

go 1.25.6

replace github.com/zipbt/behaviortree => ../..

require (
	github.com/joeycumines/go-behaviortree v1.11.0
	github.com/zipbt/behaviortree v0.0.0-00010101000000-000000000000
)

require (
	github.com/benbjohnson/immutable v0.4.3 // indirect
	github.com/joeycumines/go-bigbuff v1.21.0 // indirect
	golang.org/x/exp v0.0.0-20220518171630-0b5c67f07fdf // indirect
)
