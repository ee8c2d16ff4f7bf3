//go:build !unix

package regularfile

const openFlags = 0

func isLoop(error) bool { return false }
