/* Stock bug (0004): Neighbor::init_pair() deletes its NBin/NStencil/NPair objects and
   allocates new arrays for them, but resets nbin/nstencil only after the class lookups,
   and the new arrays hold no pointers yet.  When a lookup fails (here: rRESPA inner and
   outer levels under neighbor multi, for which no NPair class exists) the error leaves
   the old counts and the uninitialised arrays behind, and a library caller that catches
   the error and deletes the instance makes ~Neighbor() delete garbage pointers.  lmp
   itself exits without deleting the instance, so only the library interface shows it.
   Run with MALLOC_PERTURB_=1 (new arrays hold non-zero bytes).
     usage: init_pair_error       (correct: prints "caught ... ok" and exits 0) */

#include "exceptions.h"
#include "input.h"
#include "lammps.h"

#include <mpi.h>

#include <cstdio>

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  const char *args[] = {"init_pair_error", "-log", "none", "-screen", "none", "-nocite"};
  auto *lmp = new LAMMPS_NS::LAMMPS(6, const_cast<char **>(args), MPI_COMM_WORLD);
  const char *commands[] = {"units lj",
                            "atom_style atomic",
                            "region box block 0 10 0 10 0 10",
                            "create_box 1 box",
                            "create_atoms 1 random 200 4711 NULL",
                            "mass 1 1.0",
                            "pair_style lj/cut 2.5",
                            "pair_coeff 1 1 1.0 1.0",
                            "neighbor 0.3 multi",
                            "run 0",    // a first init_pair() that succeeds: nbin = 1
                            "run_style respa 2 2 inner 1 1.5 2.0 outer 2",
                            "run 1"};    // "Requested neighbor pair method does not exist"
  bool caught = false;
  try {
    for (const char *command : commands) lmp->input->one(command);
  } catch (LAMMPS_NS::LAMMPSException &e) {
    caught = true;
    std::printf("caught: %s\n", e.what());
  }
  delete lmp;    // stock: ~Neighbor() deletes neigh_bin[0] of the new, unset array
  MPI_Finalize();
  std::printf("%s\n", caught ? "ok" : "no error was raised");
  return caught ? 0 : 2;
}
