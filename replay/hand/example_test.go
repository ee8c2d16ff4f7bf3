package hand_test

import (
	"fmt"

	"github.com/fairhold/fairhold/replay/card"
	"github.com/fairhold/fairhold/replay/hand"
)

// A board's key is built once; each pair of hole cards costs two Adds and
// a Value.
func ExampleKey() {
	board, err := card.ParseN("Ah Kh 7c 7d 2s", 5)
	if err != nil {
		panic(err)
	}
	var k hand.Key
	for _, c := range board {
		k = k.Add(c)
	}
	for _, hole := range []string{"Ac Ad", "Qh Jh", "7h 7s"} {
		cs, err := card.ParseN(hole, 2)
		if err != nil {
			panic(err)
		}
		v := k.Add(cs[0]).Add(cs[1]).Value()
		fmt.Println(hole, v.Category(), v >= hand.MinPair(card.Four))
	}
	// Output:
	// Ac Ad full-house true
	// Qh Jh one-pair true
	// 7h 7s four-of-a-kind true
}

func ExampleBestFive() {
	cs, err := card.ParseList("5d 4c As 3h 2h Kd Kc")
	if err != nil {
		panic(err)
	}
	best, v, err := hand.BestFive(cs)
	if err != nil {
		panic(err)
	}
	fmt.Println(card.Format(best[:]), v.Category(), v.CactusKev())
	// Output: 5d 4c 3h 2h As straight 1609
}
