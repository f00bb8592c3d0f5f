// asg-ctl: calls one service of an interactive worker (asg-worker --serve) and prints its reply.
#include <iostream>
#include <string>
#include <vector>

#include "ctl/ctl.h"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return asg::ctl::RunCtl(args, std::cout, std::cerr);
}
