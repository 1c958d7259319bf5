package battleship_test

import (
	"fmt"

	"github.com/zipbt/behaviortree/battleship"
)

// Play one game of bot C on a small seeded board, then step it back and
// look at the bot as it was.
func Example() {
	cfg := battleship.Config{Cols: 6, Rows: 6, Fleet: []int{3, 2}}
	board, err := battleship.NewBoard(cfg, 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	bot, err := battleship.NewBot("C", 7)
	if err != nil {
		fmt.Println(err)
		return
	}
	game := battleship.NewGame(board, bot)
	if err := game.Play(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("shots:", game.Shots())
	last := game.Turns()[len(game.Turns())-1]
	fmt.Println("last shot:", last.Shot, last.Answer)

	if err := game.Undo(1); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("after undo, the bot wants to", game.Bot().Tree().Value())
	// Output:
	// shots: 27
	// last shot: F2 sunk ship 2
	// after undo, the bot wants to go_right
}
