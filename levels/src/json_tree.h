#pragma once
// The positioned JSON reader is public (input scripts read it too): see its header.
#include "stagger/levels/json_tree.h"
