module github.com/zipbt/behaviortree

go 1.23

require (
	github.com/benbjohnson/immutable v0.4.3
	github.com/leanovate/gopter v0.2.11
)

require golang.org/x/exp v0.0.0-20220518171630-0b5c67f07fdf // indirect
