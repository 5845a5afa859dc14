// GoogleTest main for tests that run real LAMMPS instances on MPI_COMM_WORLD:
// every rank runs every test (the checks are collective); rank 0 reports.
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me != 0) {
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int rv = RUN_ALL_TESTS();    // not const: LAMMPS' serial MPI stubs (HGRID_MPI=OFF)
  int all = 0;
  MPI_Allreduce(&rv, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return all;
}
