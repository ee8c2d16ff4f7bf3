package hand

import "github.com/fairhold/fairhold/replay/card"

// Key is an incremental evaluation state: start from the zero Key, Add
// cards one at a time, and ask for the Value once it holds 5 to 7 cards.
// Keys for shared prefixes (a board, say) can be computed once and reused.
// Adding a card twice, or more than seven cards, gives a meaningless value.
type Key struct {
	set card.Set
}

// Add returns the key with card c added.
func (k Key) Add(c card.Card) Key { return Key{set: k.set.Add(c)} }

// Value returns the value of the best five cards of the key's 5 to 7
// cards.
func (k Key) Value() Value { return RefEval(k.set.Cards()) }
