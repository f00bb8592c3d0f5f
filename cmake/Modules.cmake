# The modules, lowest first, and what each may use: the one table of the project's layering.
# The root CMakeLists.txt adds them in this order; tests/architecture/layering_test.py fails
# naming the file and line of any #include of a module not listed as usable, and of any module
# the module map of docs/development.md lists differently. A module is a folder (a sub-folder of
# another module's folder when it is a library of its own, e.g. client/farm) and one library
# target.
#
#          module           may use
asg_module(core)
asg_module(json             core)
asg_module(catalog          core json)
asg_module(planning         core)
asg_module(regret           core planning)
asg_module(protocol         core json regret)
asg_module(results          core json protocol)
asg_module(failures         core json protocol)
asg_module(search           core json regret)
asg_module(terrain          core protocol)
asg_module(recording        core json catalog protocol results terrain)
asg_module(scene            core json catalog planning protocol terrain)
asg_module(capture          core protocol scene terrain)
asg_module(worker           core json catalog protocol capture recording regret results scene terrain)
asg_module(report           core json protocol results failures search terrain)
asg_module(client/batch     core json catalog protocol results failures search terrain)
asg_module(client/failures  core json catalog protocol results failures terrain)
asg_module(client/launch    core protocol)
asg_module(client/nodes     core json protocol results client/batch)
asg_module(client/farm      core json catalog protocol recording results report client/batch client/failures client/launch client/nodes)
asg_module(client/search    core json protocol results failures search client/batch client/failures client/farm)
asg_module(client/replay    core json protocol report results client/batch client/failures client/farm)
asg_module(client           core json catalog protocol recording report client/batch client/failures client/farm client/replay client/search)
asg_module(ctl              core json protocol)
asg_module(nodes            core json protocol)
asg_module(nodes/examples   core json protocol nodes)

# What a module's tests (tests/<module>/) may use beyond the module's own row.
#                        module           may also use
asg_tests_may_also_use(nodes/examples   scene)  # the example's control law against scene's driver
