package auth

// ThrottleAddr exports throttleAddr for its table test.
var ThrottleAddr = throttleAddr
